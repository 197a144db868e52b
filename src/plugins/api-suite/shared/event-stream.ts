/**
 * Server-Sent Events read from a fetch body, for the browser code of the plugin (the admin panel
 * and the consumer portal). Both read their streams over fetch rather than EventSource, which
 * cannot send the Authorization header their credentials travel in. Blocks are separated by a
 * blank line and hold `event:` and `data:` lines; comment lines (heartbeats) are skipped.
 */
export interface StreamEvent {
  event: string;
  data: string;
}

/** Read `reader` to its end, handing each event over as it completes. */
export async function readEvents(reader: ReadableStreamDefaultReader<Uint8Array>, onEvent: (event: StreamEvent) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let boundary = buffer.indexOf('\n\n');
    while (boundary !== -1) {
      const parsed = parseBlock(buffer.slice(0, boundary));
      buffer = buffer.slice(boundary + 2);
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
