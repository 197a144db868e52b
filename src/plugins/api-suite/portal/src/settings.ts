/** The site's settings for the portal, put in the page by the server (the CSP allows no inline script). */
export interface PortalSettings {
  title: string;
  accentColor: string;
  basePath: string;
  allowRegister: boolean;
}

export function readSettings(): PortalSettings {
  const fallback: PortalSettings = { title: 'API portal', accentColor: '#4945ff', basePath: '/portal', allowRegister: true };
  const content = document.querySelector('meta[name="portal-settings"]')?.getAttribute('content');
  if (!content) return fallback;
  try {
    return { ...fallback, ...(JSON.parse(content) as Partial<PortalSettings>) };
  } catch {
    return fallback;
  }
}
