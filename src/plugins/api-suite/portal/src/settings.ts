import type { PortalSettings } from '../../shared/api-types';

export type { PortalSettings };

export function readSettings(): PortalSettings {
  const fallback: PortalSettings = {
    title: 'API portal',
    accentColor: '#4945ff',
    basePath: '/portal',
    allowRegister: true,
    currency: 'eur',
    billing: true,
    restPrefix: '/api',
    sold: [],
    publicRoutes: [],
  };
  // Outside a page (the portal's modules under test in Node, typed without the DOM) the defaults apply.
  const page = (globalThis as { document?: { querySelector(selector: string): { getAttribute(name: string): string | null } | null } })
    .document;
  if (!page) return fallback;
  const content = page.querySelector('meta[name="portal-settings"]')?.getAttribute('content');
  if (!content) return fallback;
  try {
    return { ...fallback, ...(JSON.parse(content) as Partial<PortalSettings>) };
  } catch {
    return fallback;
  }
}

let read: PortalSettings | undefined;

/** The settings of this page, read once: for code far from the App's props (the billing and plan hooks). */
export function siteSettings(): PortalSettings {
  read ??= readSettings();
  return read;
}
