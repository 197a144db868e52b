#!/usr/bin/env node
'use strict';
/**
 * `npm run playground`: the other end of the README's walkthrough, on this machine.
 *
 *   POST /hooks      a webhook receiver: prints each delivery and whether its signature verifies
 *                    (with WEBHOOK_SECRET, the secret the portal showed when the endpoint was made;
 *                    verified with the `standardwebhooks` package, as a receiver of yours would)
 *   GET  /shop       a small shop page for a scraper to read (products with a name, a price and a link)
 *   GET  /shop/<n>   each product's own page
 *
 * PLAYGROUND_PORT sets the port (4000). It listens on 127.0.0.1 only. Nothing is kept.
 */
const http = require('node:http');
const { Webhook } = require('standardwebhooks');

const port = Number(process.env.PLAYGROUND_PORT || 4000);
const secret = process.env.WEBHOOK_SECRET || '';

const PRODUCTS = [
  { name: 'Blue mug', price: '12.50' },
  { name: 'Green teapot', price: '34.00' },
  { name: 'Oak tray', price: '27.90' },
];

const shop = () =>
  `<!doctype html><html><head><title>Playground shop</title></head><body><h1>Playground shop</h1>${PRODUCTS.map(
    (product, index) =>
      `<div class="product"><h2 class="name">${product.name}</h2><span class="price">${product.price}</span><a class="link" href="/shop/${index + 1}">details</a></div>`
  ).join('')}</body></html>`;

function verify(headers, body) {
  if (!secret) return 'not checked (start the playground with WEBHOOK_SECRET=<the signing secret of the endpoint> to check signatures)';
  try {
    new Webhook(secret).verify(body, {
      'webhook-id': headers['webhook-id'],
      'webhook-timestamp': headers['webhook-timestamp'],
      'webhook-signature': headers['webhook-signature'],
    });
    return 'signature verified';
  } catch (error) {
    return `signature NOT verified: ${error.message}`;
  }
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, `http://127.0.0.1:${port}`);
  if (req.method === 'POST' && url.pathname === '/hooks') {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event = {};
      try {
        event = JSON.parse(body);
      } catch {
        // printed as it came below
      }
      const check = verify(req.headers, body);
      console.log(`[playground] delivery ${req.headers['webhook-id'] ?? '(no id)'}: ${event.type ?? '(no type)'}, ${check}`);
      console.log(`[playground]   data: ${JSON.stringify(event.data ?? body).slice(0, 300)}`);
      res.writeHead(check.startsWith('signature NOT') ? 401 : 204).end();
    });
    return;
  }
  if (req.method === 'HEAD' && url.pathname === '/hooks') return void res.writeHead(204).end();
  if (req.method === 'GET' && url.pathname === '/shop') {
    return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shop());
  }
  const item = /^\/shop\/(\d+)$/.exec(url.pathname);
  if (req.method === 'GET' && item && PRODUCTS[Number(item[1]) - 1]) {
    const product = PRODUCTS[Number(item[1]) - 1];
    return void res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html><body><h1 class="name">${product.name}</h1><p class="price">${product.price}</p></body></html>`);
  }
  if (req.method === 'GET' && url.pathname === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
  res.writeHead(404).end();
});

server.listen(port, '127.0.0.1', () => {
  console.log(`[playground] listening on http://127.0.0.1:${port}: webhooks to /hooks, a shop to scrape at /shop`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGINT', () => server.close(() => process.exit(0)));
