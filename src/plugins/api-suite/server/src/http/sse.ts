import { PassThrough } from 'node:stream';
import type { Context } from 'koa';

export interface EventStreamOptions<T> {
  /** The event's name (`event:` line). */
  event: string;
  /** Seconds between events; also the client's reconnection delay. */
  intervalSeconds: number;
  /** Sent at once, computed before the stream starts so a bad request still answers ordinary JSON. */
  first: T;
  /** The next event's data. */
  next: () => Promise<T>;
  /** A failed `next`: logged by the caller; the stream goes on. */
  onError: (error: Error) => void;
  /** Called once when the stream ends, however it ends (the client leaves or resets, or the server closes it). */
  onClose?: () => void;
}

/**
 * Answer with Server-Sent Events: `first` at once, then `next()` every interval until the client
 * goes away. While a slow `next()` is still running (or after one failed) a comment line keeps
 * proxies and the browser from taking the quiet connection for a dead one.
 */
export function streamEvents<T>(ctx: Context, options: EventStreamOptions<T>): void {
  const stream = new PassThrough();
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.req.socket.setKeepAlive(true);
  ctx.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  ctx.status = 200;
  ctx.body = stream;

  let sequence = 0;
  const send = (data: T) => {
    sequence += 1;
    stream.write(`id: ${sequence}\nevent: ${options.event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  stream.write(`retry: ${options.intervalSeconds * 1000}\n\n`);
  send(options.first);
  let busy = false;
  const timer = setInterval(() => {
    if (busy) {
      stream.write(': heartbeat\n\n');
      return;
    }
    busy = true;
    options
      .next()
      .then(send, (error: Error) => {
        options.onError(error);
        stream.write(': heartbeat\n\n');
      })
      .finally(() => {
        busy = false;
      });
  }, options.intervalSeconds * 1000);
  let closed = false;
  const finish = () => {
    clearInterval(timer);
    if (closed) return;
    closed = true;
    options.onClose?.();
  };
  const stop = () => {
    finish();
    stream.end();
  };
  // A client that resets its connection also errors the socket, which Koa reports to the app's
  // error handler; http/app-errors.ts writes that through the logger.
  ctx.req.once('close', stop);
  stream.once('close', finish);
}
