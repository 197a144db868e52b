/** The site's settings for the portal, put in the page by the server (the CSP allows no inline script). */
export interface PortalSettings {
  title: string;
  accentColor: string;
  basePath: string;
  allowRegister: boolean;
  /** The shop's currency, for prices the public plan list gives without one. */
  currency: string;
  /** Whether the site sells plans through Stripe; false: the billing routes would answer 503, so they are not asked. */
  billing: boolean;
}

export function readSettings(): PortalSettings {
  const fallback: PortalSettings = {
    title: 'API portal',
    accentColor: '#4945ff',
    basePath: '/portal',
    allowRegister: true,
    currency: 'eur',
    billing: true,
  };
  const content = document.querySelector('meta[name="portal-settings"]')?.getAttribute('content');
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
