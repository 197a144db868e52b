import { getTranslation } from './utils/getTranslation';
import { PLUGIN_ID } from './pluginId';
import { PluginIcon } from './components/PluginIcon';
import { MENU_PERMISSIONS } from './permissions';
import { INJECT_COLUMN_IN_TABLE, shortenListColumns } from './content-manager/listColumns';
import { WrittenByPanel, type EditViewPanel } from './content-manager/WrittenByPanel';

interface AdminApp {
  addMenuLink(link: {
    to: string;
    icon: React.ComponentType;
    intlLabel: { id: string; defaultMessage: string };
    /** A loader returning a module shape (`{ default }`), as Strapi 5 expects; an async function returning the component is deprecated. */
    Component: () => Promise<{ default: React.ComponentType }>;
    /** The link shows for admin users holding any one of these. */
    permissions: Array<{ action: string; subject: null }>;
  }): void;
  registerPlugin(plugin: { id: string; name: string }): void;
  registerHook(name: string, hook: typeof shortenListColumns): void;
  getPlugin(id: 'content-manager'): { apis: unknown } | undefined;
}

export default {
  register(app: AdminApp) {
    app.addMenuLink({
      to: `plugins/${PLUGIN_ID}`,
      icon: PluginIcon,
      intlLabel: { id: getTranslation('plugin.name'), defaultMessage: 'API Suite' },
      Component: () => import('./pages/App').then((mod) => ({ default: mod.App })),
      permissions: MENU_PERMISSIONS,
    });
    app.registerPlugin({ id: PLUGIN_ID, name: PLUGIN_ID });
  },

  // The Content Manager's hooks exist once every plugin has registered.
  bootstrap(app: Pick<AdminApp, 'registerHook' | 'getPlugin'>) {
    app.registerHook(INJECT_COLUMN_IN_TABLE, shortenListColumns);
    // The edit view's side panel naming the scraper that last wrote a document.
    const apis = app.getPlugin('content-manager')?.apis as { addEditViewSidePanel?(panels: EditViewPanel[]): void } | undefined;
    apis?.addEditViewSidePanel?.([WrittenByPanel]);
  },

  async registerTrads({ locales }: { locales: string[] }) {
    return Promise.all(
      locales.map(async (locale) => {
        try {
          const { default: data } = await import(`./translations/${locale}.json`);
          return { data: prefixKeys(data as Record<string, string>), locale };
        } catch {
          return { data: {}, locale };
        }
      })
    );
  },
};

function prefixKeys(data: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [getTranslation(key), value]));
}
