import fs from 'node:fs';
import path from 'node:path';
import type { Core, UID } from '@strapi/strapi';
import { getConfig, getService } from '../../../utils';
import type { PortalSettings } from '../validation/responses';
import { restPrefix } from '../../../http/site-paths';
import { watchedTypes } from '../../content/watched';

export interface PortalAsset {
  contentType: string;
  body: Buffer;
}

/** What the plugin's build writes beside the hashed files: which of them the page loads. */
interface PortalManifest {
  script: string;
  styles: string[];
  /** Files the script imports statically (code shared with the pages loaded later); absent from older builds. */
  preload?: string[];
}

/**
 * Only scripts, styles and connections to this origin: the portal calls the site's own API and
 * nothing else. Inline scripts and styles are refused too (the app's styles are one built file,
 * its settings a meta tag); Checkout and the Stripe portal are top-level navigations, which CSP
 * does not govern.
 */
export const PORTAL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the built portal (the plugin package's `dist/portal/`): the page, with the site's title
 * and accent colour, and its files, read once into memory. Only the files the build wrote can be
 * answered, so no request path reaches the file system.
 */
const portalService = ({ strapi }: { strapi: Core.Strapi }) => {
  let build: { manifest: PortalManifest; assets: Map<string, PortalAsset> } | null | undefined;

  const load = () => {
    if (build !== undefined) return build;
    const dir = BUILD_DIRS.find((candidate) => fs.existsSync(path.join(candidate, 'manifest.json')));
    if (!dir) {
      strapi.log.error(
        `[api-suite] the portal is not built (looked for manifest.json in ${BUILD_DIRS.join(', ')}); run the plugin's build`
      );
      build = null;
      return build;
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as PortalManifest;
    const assets = new Map<string, PortalAsset>();
    const assetsDir = path.join(dir, 'assets');
    for (const name of fs.readdirSync(assetsDir)) {
      const contentType = CONTENT_TYPES[path.extname(name)];
      if (contentType) assets.set(name, { contentType, body: fs.readFileSync(path.join(assetsDir, name)) });
    }
    build = { manifest, assets };
    return build;
  };

  const settings = async (): Promise<PortalSettings> => {
    const { portal, commerce } = getConfig(strapi);
    return {
      title: portal.title,
      accentColor: portal.accentColor,
      basePath: portal.path,
      allowRegister: await registrationOpen(strapi),
      currency: commerce.currency,
      billing: getService(strapi, 'stripe').configured(),
      restPrefix: restPrefix(strapi),
      sold: soldContent(strapi),
      publicRoutes: await getService(strapi, 'access').publicContentRoutes(),
    };
  };

  return {
    settings,

    /** The HTML of every page of the portal (routing is the client's), or null when it is not built. */
    async page(): Promise<string | null> {
      const loaded = load();
      if (!loaded) return null;
      const current = await settings();
      const asset = (name: string) => `${current.basePath}/assets/${name}`;
      return [
        '<!doctype html>',
        '<html lang="en">',
        '<head>',
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        `<title>${escapeHtml(current.title)}</title>`,
        `<meta name="portal-settings" content="${escapeHtml(JSON.stringify(current))}">`,
        ...loaded.manifest.styles.map((name) => `<link rel="stylesheet" href="${escapeHtml(asset(name))}">`),
        ...(loaded.manifest.preload ?? []).map((name) => `<link rel="modulepreload" href="${escapeHtml(asset(name))}">`),
        `<script type="module" src="${escapeHtml(asset(loaded.manifest.script))}"></script>`,
        '</head>',
        '<body><div id="root"></div><noscript>The portal needs JavaScript.</noscript></body>',
        '</html>',
      ].join('\n');
    },

    /** A built file by its (hashed) name; undefined for anything else. */
    asset(name: string): PortalAsset | undefined {
      return load()?.assets.get(name);
    },

    headers(): Record<string, string> {
      return { 'Content-Security-Policy': PORTAL_CSP, 'Referrer-Policy': 'same-origin', 'X-Content-Type-Options': 'nosniff' };
    },
  };
};

/** What the plan cards name (PortalSettings.sold): the versioned articles first where the site has them, then its types. */
function soldContent(strapi: Core.Strapi): PortalSettings['sold'] {
  const articleUid = getConfig(strapi).contentTypes.article;
  const versioned = strapi.contentTypes[articleUid as UID.ContentType]
    ? [{ label: 'articles', path: '/api/v1/articles', write: 'POST' as const }]
    : [];
  const own = watchedTypes(strapi).map((type) => ({
    label: type.kind === 'singleType' ? type.singularName : type.pluralName,
    path: type.basePath,
    write: type.kind === 'singleType' ? ('PUT' as const) : ('POST' as const),
  }));
  return [...versioned, ...own];
}

export default portalService;
export type PortalService = ReturnType<typeof portalService>;

/** The built server is dist/server/index.js, the portal dist/portal; from the sources (tests of the server alone) the same dist. */
const BUILD_DIRS = [path.resolve(__dirname, '..', 'portal'), path.resolve(__dirname, '..', '..', '..', '..', '..', 'dist', 'portal')];

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

async function registrationOpen(strapi: Core.Strapi): Promise<boolean> {
  try {
    const advanced = (await strapi.store({ type: 'plugin', name: 'users-permissions' }).get({ key: 'advanced' })) as {
      allow_register?: boolean;
    } | null;
    return advanced?.allow_register === true;
  } catch {
    // No users-permissions store: the sign-up form is offered and the server's answer shown.
    return true;
  }
}
