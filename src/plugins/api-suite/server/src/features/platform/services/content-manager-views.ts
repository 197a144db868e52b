import { createHash } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { PLUGIN_ID } from '../../../constants';
import type { ContentManagerView } from '../../types';

/**
 * How the Content Manager shows each content type (its list columns and order, the field that
 * names an entry, the edit form's rows and labels), declared in code so that a new database
 * gets it and an existing one is brought up to date.
 *
 * Strapi keeps these views in its core store and lets editors change them ("Configure the
 * view"). A view declared here is written once per version of its declaration: an editor's own
 * changes stand until the declaration itself changes, then the declared view is written again
 * (a hash of each declaration is kept in the plugin's store).
 */

export type { ContentManagerView };

interface StoredConfiguration {
  settings: Record<string, unknown>;
  metadatas: Record<string, { edit: Record<string, unknown>; list: Record<string, unknown> }>;
  layouts: { list: string[]; edit: Array<Array<{ name: string; size: number }>> };
}

interface ContentManagerTypes {
  findContentType(uid: string): { uid: string } | undefined;
  findConfiguration(contentType: { uid: string }): Promise<Partial<StoredConfiguration>>;
  updateConfiguration(contentType: { uid: string }, configuration: StoredConfiguration): Promise<unknown>;
  syncConfigurations(): Promise<void>;
}

interface FieldSizes {
  getFieldSize(type: string): { default: number; isResizable: boolean };
}

const STORE_KEY = 'content-manager-views';
const USER = 'plugin::users-permissions.user';

const contentManagerViews = ({ strapi }: { strapi: Core.Strapi }) => {
  const views = new Map<string, ContentManagerView>();

  const store = () => strapi.store({ type: 'plugin', name: PLUGIN_ID, key: STORE_KEY });

  return {
    /** Declare the view of a content type (a feature's at load, the host app's in its register). */
    add(uid: string, view: ContentManagerView): void {
      if (views.has(uid)) throw new Error(`api-suite: the Content Manager view of ${uid} is declared twice`);
      // Money is labelled with the shop's currency ("Price ({currency})").
      const currency = String(strapi.config.get(`plugin::${PLUGIN_ID}.commerce.currency`, 'eur')).toUpperCase();
      const labels =
        view.labels &&
        Object.fromEntries(Object.entries(view.labels).map(([field, label]) => [field, label.replace('{currency}', currency)]));
      views.set(uid, { ...view, labels });
    },

    declared(): ReadonlyMap<string, ContentManagerView> {
      return views;
    },

    /** Write every declared view whose declaration is new or changed since it was last written. */
    async apply(): Promise<void> {
      const contentManager = strapi.plugin('content-manager');
      if (!contentManager || views.size === 0) return;
      const types = contentManager.service('content-types') as unknown as ContentManagerTypes;
      const sizes = contentManager.service('field-sizes') as unknown as FieldSizes;

      const written = ((await store().get()) ?? {}) as Record<string, string>;
      const due = [...views]
        .filter(([uid]) => strapi.contentTypes[uid as never])
        .map(([uid, view]) => ({ uid, view, version: versionOf(uid) }))
        .filter(({ uid, version }) => written[uid] !== version);
      if (due.length === 0) return;

      for (const { uid, view, version } of due) {
        const contentType = types.findContentType(uid);
        if (!contentType) continue;
        let current = await types.findConfiguration(contentType);
        if (!current.layouts) {
          // The Content Manager makes every type's default view in its own bootstrap; if ours ran first, make them now.
          await types.syncConfigurations();
          current = await types.findConfiguration(contentType);
        }
        await types.updateConfiguration(contentType, configure(uid, view, current, sizes));
        written[uid] = version;
      }
      await store().set({ value: written });
      strapi.log.info(`[api-suite] Content Manager: wrote the views of ${due.map(({ uid }) => uid.split('.').pop()).join(', ')}`);
    },
  };

  function mainFieldOf(target: string | undefined): string | undefined {
    if (target === USER) return 'email';
    return target ? views.get(target)?.mainField : undefined;
  }

  /** A view's version: its declaration and the names its relation pickers take from the related types. */
  function versionOf(uid: string): string {
    const attributes = strapi.contentTypes[uid as never].attributes as Record<string, { type: string; target?: string }>;
    const pickers = Object.entries(attributes).map(([field, attribute]) => [
      field,
      attribute.type === 'relation' ? mainFieldOf(attribute.target) : undefined,
    ]);
    return createHash('sha256')
      .update(JSON.stringify([views.get(uid), pickers]))
      .digest('hex')
      .slice(0, 16);
  }

  /** The stored configuration with the declared view laid over it (metadata of undeclared fields kept). */
  function configure(uid: string, view: ContentManagerView, current: Partial<StoredConfiguration>, sizes: FieldSizes): StoredConfiguration {
    const attributes = strapi.contentTypes[uid as never].attributes as Record<string, { type: string; target?: string }>;
    const known = (field: string) => {
      if (!(field in attributes)) throw new Error(`api-suite: the Content Manager view of ${uid} names ${field}, which it does not have`);
      return field;
    };
    known(view.mainField);
    known(view.sort.by);
    view.list.forEach(known);

    const edit = view.edit.map((row) =>
      row.map((cell) => {
        const [name, width] = typeof cell === 'string' ? [cell, undefined] : cell;
        const size = sizes.getFieldSize(attributes[known(name)].type);
        if (width !== undefined && !size.isResizable && width !== size.default) {
          throw new Error(`api-suite: ${uid}.${name} is always ${size.default} wide in the Content Manager`);
        }
        return { name, size: width ?? size.default };
      })
    );
    for (const row of edit) {
      if (row.reduce((sum, cell) => sum + cell.size, 0) > 12) throw new Error(`api-suite: a row of ${uid}'s edit view is wider than 12`);
    }

    const metadatas = structuredClone(current.metadatas ?? {});
    for (const [field, attribute] of Object.entries(attributes)) {
      const metadata = (metadatas[field] ??= { edit: {}, list: {} });
      const label = view.labels?.[field];
      if (label) {
        metadata.edit.label = label;
        metadata.list.label = label;
      }
      if (view.descriptions?.[field]) metadata.edit.description = view.descriptions[field];
      if (view.readOnlyFields?.includes(field)) metadata.edit.editable = false;
      // Relation pickers name the related entries by the main field of the related type's view.
      const targetField = attribute.type === 'relation' ? mainFieldOf(attribute.target) : undefined;
      if (targetField) metadata.edit.mainField = targetField;
    }

    return {
      settings: {
        ...current.settings,
        mainField: view.mainField,
        defaultSortBy: view.sort.by,
        defaultSortOrder: view.sort.order,
        ...(view.pageSize ? { pageSize: view.pageSize } : {}),
      },
      metadatas,
      layouts: { ...current.layouts, list: view.list, edit },
    };
  }
};

export type ContentManagerViewsService = ReturnType<typeof contentManagerViews>;
export default contentManagerViews;
