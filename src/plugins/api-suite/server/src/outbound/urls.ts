import { InvalidUrlError } from './errors';

/** Parsed URLs by their text: a webhook endpoint is parsed once, not once per delivery. Read only. */
const parsedUrls = new Map<string, URL>();
const PARSED_URLS_KEPT = 1000;

export function parseHttpUrl(input: string | URL): URL {
  if (typeof input !== 'string') return checkHttpUrl(new URL(input.href));
  let url = parsedUrls.get(input);
  if (url) return url;
  url = checkHttpUrl(parseUrl(input));
  if (parsedUrls.size >= PARSED_URLS_KEPT) parsedUrls.clear();
  parsedUrls.set(input, url);
  return url;
}

function parseUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new InvalidUrlError(`${JSON.stringify(input)} is not a valid URL`);
  }
  return url;
}

function checkHttpUrl(url: URL): URL {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidUrlError(`${url.protocol}// URLs are not allowed; only http: and https: are`);
  }
  return url;
}
