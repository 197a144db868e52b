import { readEvents, type StreamEvent } from '../../../shared/event-stream';

export type { StreamEvent } from '../../../shared/event-stream';

export class StreamRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown
  ) {
    super(`the stream was refused with HTTP ${status}`);
    this.name = 'StreamRefused';
  }
}

/**
 * Read a Server-Sent Events body from fetch. EventSource cannot send the admin session's
 * Authorization header, so the stream is an ordinary authenticated fetch whose body the shared
 * reader parses.
 */
export async function readEventStream(
  url: string,
  token: string | null,
  signal: AbortSignal,
  onEvent: (event: StreamEvent) => void
): Promise<void> {
  const response = await fetch(url, {
    headers: { Accept: 'text/event-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    signal,
  });
  if (!response.ok || !response.body) {
    const body: unknown = await response.json().catch(() => null);
    throw new StreamRefused(response.status, body);
  }
  await readEvents(response.body.getReader(), onEvent);
}

/** Where the admin's API lives (the same origin unless the site serves the admin elsewhere). */
export function backendUrl(): string {
  return (window as unknown as { strapi?: { backendURL?: string } }).strapi?.backendURL ?? '';
}
