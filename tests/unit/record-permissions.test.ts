import {
  governedTypes,
  requiredAction,
  standingGrants,
} from '../../src/plugins/api-suite/server/src/features/platform/record-permissions/rules';

const PLAN = 'plugin::api-suite.plan';
const governed = governedTypes([
  { uid: PLAN, pluginOptions: { 'api-suite': { permission: 'access' } } },
  { uid: 'plugin::api-suite.order', pluginOptions: { 'api-suite': { permission: 'sales' } } },
  { uid: 'api::article.article', pluginOptions: {} },
]);
const explorer = (verb: string, subject: string) => ({ action: `plugin::content-manager.explorer.${verb}`, subject });

describe('record permissions', () => {
  it("governs the plugin's types only, and refuses a plugin type that names no permission", () => {
    expect([...governed.entries()]).toEqual([
      [PLAN, 'access'],
      ['plugin::api-suite.order', 'sales'],
    ]);
    expect(() => governedTypes([{ uid: 'plugin::api-suite.new-thing', pluginOptions: { 'content-manager': { visible: true } } }])).toThrow(
      'plugin::api-suite.new-thing names no governing permission'
    );
  });

  it("asks the feature's read for reading and its manage for everything else", () => {
    expect(requiredAction(explorer('read', PLAN), governed)).toBe('plugin::api-suite.access.read');
    for (const verb of ['create', 'update', 'delete', 'publish'])
      expect(requiredAction(explorer(verb, PLAN), governed)).toBe('plugin::api-suite.access.manage');
    expect(requiredAction({ action: 'plugin::content-releases.create-action', subject: 'plugin::api-suite.order' }, governed)).toBe(
      'plugin::api-suite.sales.manage'
    );
    expect(requiredAction(explorer('create', 'api::article.article'), governed)).toBeUndefined();
    expect(requiredAction({ action: 'plugin::upload.read', subject: null }, governed)).toBeUndefined();
  });

  it('keeps a grant on a plugin record only beside the feature permission in the same list', () => {
    const editor = [
      explorer('read', PLAN),
      explorer('create', PLAN),
      explorer('create', 'api::article.article'),
      { action: 'plugin::upload.read', subject: null },
    ];
    expect(standingGrants(editor, governed)).toEqual([
      explorer('create', 'api::article.article'),
      { action: 'plugin::upload.read', subject: null },
    ]);
    const reader = [...editor, { action: 'plugin::api-suite.access.read' }];
    expect(standingGrants(reader, governed)).toEqual([
      explorer('read', PLAN),
      explorer('create', 'api::article.article'),
      { action: 'plugin::upload.read', subject: null },
      { action: 'plugin::api-suite.access.read' },
    ]);
    const manager = [...reader, { action: 'plugin::api-suite.access.manage' }];
    expect(standingGrants(manager, governed)).toEqual(manager);
  });
});
