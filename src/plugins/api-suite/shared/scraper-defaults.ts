/**
 * What a scraper created without these settings gets: the one source of the server's defaults
 * (the service and the content type) and of what the admin panel's and the portal's forms start from.
 */
export const SCRAPER_DEFAULTS = { rate_limit: 5, max_pages: 100, follow_links: false, respect_robots_txt: true } as const;
