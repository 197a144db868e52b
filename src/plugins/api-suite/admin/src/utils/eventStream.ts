/**
 * Read a Server-Sent Events body from fetch. EventSource cannot send the admin session's
 * Authorization header, so the stream is an ordinary authenticated fetch whose body is parsed
 * here: blocks separated by a blank line, `event:` and `data:` lines.
 */
export interface StreamEvent {
  event: string;
  data: string;
}

export class StreamRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown
  ) {
    super(`the stream was refused with HTTP ${status}`);
    this.name = 'StreamRefused';
  }
}

export async function readEventStream(url: string, token: string | null, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<void> {
  const response = await fetch(url, {
    headers: { Accept: 'text/event-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    signal,
  });
  if (!response.ok || !response.body) {
    const body: unknown = await response.json().catch(() => null);
    throw new StreamRefused(response.status, body);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let boundary = buffer.indexOf('\n\n');
    while (boundary !== -1) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const parsed = parseBlock(block);
      if (parsed) onEvent(parsed);
      boundary = buffer.indexOf('\n\n');
    }
  }
}

function parseBlock(block: string): StreamEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length > 0 ? { event, data: data.join('\n') } : null;
}

/** Where the admin's API lives (the same origin unless the site serves the admin elsewhere). */
export function backendUrl(): string {
  return (window as unknown as { strapi?: { backendURL?: string } }).strapi?.backendURL ?? '';
}
