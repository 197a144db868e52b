import type { Core } from '@strapi/strapi';

/**
 * A small, believable site for a first look: three authors, six articles in every status, a few
 * comments, five products (one unpublished, one deleted) and two pages (one still a draft).
 * Only on an empty database, and only where SEED_DEMO_DATA allows (development by default).
 */
export async function seedDemoData(strapi: Core.Strapi): Promise<boolean> {
  const existing = await strapi.db.query('api::article.article').count({});
  const products = await strapi.db.query('api::product.product').count({});
  if (existing > 0 || products > 0) return false;

  const authors = [];
  for (const author of AUTHORS) {
    authors.push(await strapi.documents('api::author.author').create({ data: author }));
  }

  for (const [index, article] of ARTICLES.entries()) {
    const created = await strapi.documents('api::article.article').create({
      data: { ...article, author: authors[index % authors.length].documentId },
    });
    for (const comment of article.status === 'published' ? COMMENTS.slice(0, 1 + (index % 3)) : []) {
      await strapi.documents('api::comment.comment').create({ data: { ...comment, article: created.documentId } });
    }
  }

  for (const product of PRODUCTS) {
    await strapi.documents('api::product.product').create({ data: product });
  }

  for (const page of PAGES) {
    await strapi.documents('api::page.page').create({ data: page.data, status: page.published ? 'published' : undefined });
  }

  strapi.log.info(
    `[demo] seeded ${AUTHORS.length} authors, ${ARTICLES.length} articles, ${PRODUCTS.length} products and ${PAGES.length} pages`
  );
  return true;
}

const AUTHORS = [
  { name: 'Ada Okafor', email: 'ada@example.com' },
  { name: 'Bruno Lindqvist', email: 'bruno@example.com' },
  { name: 'Chen Wei', email: 'chen@example.com' },
];

const ARTICLES: Array<{ title: string; slug: string; status: 'draft' | 'published' | 'archived'; excerpt: string; body: string }> = [
  {
    title: 'Signing webhooks the Standard Webhooks way',
    slug: 'signing-webhooks',
    status: 'published',
    excerpt: 'Why every delivery carries a webhook-id, a timestamp and an HMAC.',
    body: 'Receivers verify `webhook-signature` over `id.timestamp.body` with the subscription secret.',
  },
  {
    title: 'Quotas per minute and per month',
    slug: 'quotas-per-minute-and-month',
    status: 'published',
    excerpt: 'How plans limit API keys, and which headers tell a client where it stands.',
    body: 'Every key-authenticated answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset.',
  },
  {
    title: 'Scraping politely',
    slug: 'scraping-politely',
    status: 'published',
    excerpt: 'Rate limits, robots.txt and a user agent that says who you are.',
    body: 'A scraper that respects robots.txt and keeps to a few requests a second is welcome almost everywhere.',
  },
  {
    title: 'Keyset paging in practice',
    slug: 'keyset-paging',
    status: 'published',
    excerpt: 'Deep pages that cost the same as the first one.',
    body: 'Pass the last id you saw as after_id and the database seeks straight to the next page.',
  },
  {
    title: 'Unfinished: OAuth for enterprise clients',
    slug: 'oauth-for-enterprise',
    status: 'draft',
    excerpt: 'Client credentials, scopes and short-lived tokens.',
    body: 'This article is a draft and is not visible to the public.',
  },
  {
    title: 'Our old pricing',
    slug: 'old-pricing',
    status: 'archived',
    excerpt: 'Kept for the record.',
    body: 'Archived articles stay in the database but are no longer published.',
  },
];

const COMMENTS = [
  { body: 'Clear and to the point, thanks.', author_name: 'Dana' },
  { body: 'Would love an example in Python.', author_name: 'Eli' },
  { body: 'Bookmarked for our next integration.', author_name: 'Farah' },
];

const PRODUCTS = [
  {
    name: 'Integration handbook (print)',
    slug: 'integration-handbook',
    description: 'The API, webhooks and scrapers explained in 180 printed pages, with worked examples.',
    price: 29.0,
    stock: 250,
    menuindex: 1,
    published: true,
    deleted: false,
  },
  {
    name: 'Webhook relay box',
    slug: 'webhook-relay-box',
    description: 'A small appliance that forwards signed webhooks inside your network.',
    price: 149.5,
    stock: 12,
    menuindex: 2,
    published: true,
    deleted: false,
  },
  {
    name: 'Hardware security key',
    slug: 'hardware-security-key',
    description: 'A FIDO2 key for signing in to the admin panel and the consumer portal.',
    price: 39.9,
    stock: 80,
    menuindex: 3,
    published: true,
    deleted: false,
  },
  {
    name: 'Prototype sensor kit',
    slug: 'prototype-sensor-kit',
    description: 'Not on sale yet.',
    price: 79.0,
    stock: 3,
    menuindex: 4,
    published: false,
    deleted: false,
  },
  {
    name: 'Discontinued t-shirt',
    slug: 'discontinued-t-shirt',
    description: 'No longer sold.',
    price: 15.0,
    stock: 0,
    menuindex: 5,
    published: true,
    deleted: true,
  },
];

const PAGES = [
  { data: { title: 'About us', slug: 'about', body: 'We sell access to our API by the request.' }, published: true },
  { data: { title: 'Careers (draft)', slug: 'careers', body: 'Not ready yet.' }, published: false },
];
