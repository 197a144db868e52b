import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { buildOpenApiDocument } from '../../src/plugins/api-suite/server/src/contract/openapi';
import {
  answerSchema,
  documentSchema,
  exampleDocument,
  inputSchema,
  populateFor,
  project,
  sourceOf,
  type ComponentSchema,
  type SchemaSource,
} from '../../src/plugins/api-suite/server/src/features/content/schema';
import type { Attribute, ContentTypeSchema } from '../../src/plugins/api-suite/server/src/features/content/watched';

/**
 * The mapping from a site's content types to event payloads and OpenAPI schemas, on a site it
 * has never seen: recipes and chefs, as Strapi holds their schemas once loaded (timestamps,
 * creator fields, upload files and users included).
 */

const RECIPE = 'api::recipe.recipe';
const CHEF = 'api::chef.chef';
const FILE = 'plugin::upload.file';
const USER = 'plugin::users-permissions.user';

const relation = (relationType: string, target: string, extra: Partial<Attribute> = {}): Attribute => ({
  type: 'relation',
  relation: relationType,
  target,
  ...extra,
});
const creator = (): Attribute => ({
  ...relation('oneToOne', 'admin::user'),
  configurable: false,
  writable: false,
  visible: false,
  private: true,
});
const system = (): Record<string, Attribute> => ({
  createdAt: { type: 'datetime' },
  updatedAt: { type: 'datetime' },
  publishedAt: { type: 'datetime', configurable: false, writable: true, visible: true },
  createdBy: creator(),
  updatedBy: creator(),
});
const type = (uid: string, attributes: Record<string, Attribute>, extra: Partial<ContentTypeSchema> = {}): ContentTypeSchema => {
  const name = uid.split('.').pop() ?? uid;
  return {
    uid,
    kind: 'collectionType',
    modelType: 'contentType',
    info: { singularName: name, pluralName: `${name}s` },
    ...extra,
    attributes: { ...attributes, ...system() },
  };
};

const contentTypes: Record<string, ContentTypeSchema> = {
  [RECIPE]: type(
    RECIPE,
    {
      title: { type: 'string', required: true },
      slug: { type: 'uid', targetField: 'title' },
      secret_note: { type: 'text', private: true },
      servings: { type: 'integer' },
      rating: { type: 'decimal' },
      difficulty: { type: 'enumeration', enum: ['easy', 'medium', 'hard'] },
      vegetarian: { type: 'boolean', default: false },
      cooked_at: { type: 'datetime' },
      tags: { type: 'json' },
      steps: { type: 'blocks' },
      cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
      gallery: { type: 'media', multiple: true, allowedTypes: ['images'] },
      chef: relation('manyToOne', CHEF, { inversedBy: 'recipes' }),
      mentions: { type: 'relation', relation: 'morphToMany' },
      ingredients: { type: 'component', component: 'kitchen.ingredient', repeatable: true },
      sections: { type: 'dynamiczone', components: ['kitchen.text-section', 'kitchen.tip'] },
      locale: { type: 'string', writable: true, private: false, configurable: false, visible: false },
      localizations: { ...relation('oneToMany', RECIPE), writable: false, private: false, configurable: false, visible: false },
    },
    { options: { draftAndPublish: true }, pluginOptions: { i18n: { localized: true } } }
  ),
  [CHEF]: type(CHEF, {
    name: { type: 'string', required: true },
    email: { type: 'email', private: true },
    password: { type: 'password' },
    bio: { type: 'text' },
    recipes: relation('oneToMany', RECIPE, { mappedBy: 'chef' }),
    user: relation('oneToOne', USER),
    avatar: { type: 'media', multiple: false },
  }),
  [FILE]: type(FILE, {
    name: { type: 'string', required: true },
    alternativeText: { type: 'text' },
    caption: { type: 'text' },
    focalPoint: { type: 'json' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    formats: { type: 'json' },
    hash: { type: 'string', required: true },
    ext: { type: 'string' },
    mime: { type: 'string', required: true },
    size: { type: 'decimal', required: true },
    url: { type: 'text', required: true },
    previewUrl: { type: 'text' },
    provider: { type: 'string', required: true },
    provider_metadata: { type: 'json' },
    related: { type: 'relation', relation: 'morphToMany' },
    folder: relation('manyToOne', 'plugin::upload.folder', { private: true }),
    folderPath: { type: 'string', required: true, private: true },
  }),
  [USER]: type(USER, {
    username: { type: 'string', required: true },
    email: { type: 'email', required: true },
    provider: { type: 'string' },
    password: { type: 'password', private: true },
    resetPasswordToken: { type: 'string', private: true },
    confirmed: { type: 'boolean' },
    role: relation('manyToOne', 'plugin::users-permissions.role'),
  }),
};

const components: Record<string, ComponentSchema> = {
  'kitchen.ingredient': {
    uid: 'kitchen.ingredient',
    attributes: {
      name: { type: 'string' },
      quantity: { type: 'decimal' },
      unit: { type: 'enumeration', enum: ['g', 'ml', 'piece'] },
      recommended_by: relation('manyToOne', CHEF),
    },
  },
  'kitchen.text-section': { uid: 'kitchen.text-section', attributes: { heading: { type: 'string' }, body: { type: 'richtext' } } },
  'kitchen.tip': { uid: 'kitchen.tip', attributes: { text: { type: 'text' }, photo: { type: 'media', multiple: false } } },
};

const source: SchemaSource = {
  contentType: (uid) => contentTypes[uid],
  component: (uid) => components[uid],
  isPrivate: (model, attribute) => (contentTypes[model.uid] ?? components[model.uid])?.attributes[attribute]?.private === true,
};

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>;
const props = (node: unknown): Record<string, Record<string, unknown>> =>
  (node as { properties: Record<string, Record<string, unknown>> }).properties;
/** The object branch of a nullable object's `anyOf`. */
const objectOf = (node: Record<string, unknown>) => (node.anyOf as Array<Record<string, unknown>>)[0];

const at = (iso: string) => new Date(iso);
const CREATED = '2026-03-01T08:00:00.000Z';
const UPDATED = '2026-03-02T09:30:00.000Z';
const stamps = { createdAt: at(CREATED), updatedAt: at(UPDATED), publishedAt: at(UPDATED) };
const written = { createdAt: CREATED, updatedAt: UPDATED, publishedAt: UPDATED };

const rawFile = (id: number) => ({
  id,
  documentId: `file${id}`,
  name: 'pancakes.jpg',
  alternativeText: null,
  caption: null,
  focalPoint: null,
  width: 800,
  height: 600,
  formats: '{"thumbnail":{"url":"/uploads/thumbnail_pancakes.jpg","width":156}}',
  hash: 'pancakes_1a2b',
  ext: '.jpg',
  mime: 'image/jpeg',
  size: '45.20',
  url: '/uploads/pancakes_1a2b.jpg',
  previewUrl: null,
  provider: 'local',
  provider_metadata: null,
  folderPath: '/1',
  related: [{ id: 7, __type: RECIPE }],
  ...stamps,
});
const writtenFile = (id: number) => ({
  id,
  documentId: `file${id}`,
  name: 'pancakes.jpg',
  alternativeText: null,
  caption: null,
  focalPoint: null,
  width: 800,
  height: 600,
  formats: { thumbnail: { url: '/uploads/thumbnail_pancakes.jpg', width: 156 } },
  hash: 'pancakes_1a2b',
  ext: '.jpg',
  mime: 'image/jpeg',
  size: 45.2,
  url: '/uploads/pancakes_1a2b.jpg',
  previewUrl: null,
  provider: 'local',
  provider_metadata: null,
  ...written,
  locale: null,
});

/** A chef as the document service reads it: with the private e-mail, the password, its recipes and its user. */
const rawChef = () => ({
  id: 3,
  documentId: 'chef3',
  name: 'Ann',
  email: 'ann@example.com',
  password: '$2a$10$hash',
  bio: 'Cooks.',
  recipes: [{ id: 7, documentId: 'rcp7', title: 'Pancakes', secret_note: 'grandma', ...stamps }],
  user: { id: 1, documentId: 'usr1', username: 'ann', email: 'ann@example.com', password: '$2a$10$other' },
  avatar: null,
  createdBy: { id: 1, email: 'admin@example.com' },
  ...stamps,
});
const writtenChefAtDepth0 = {
  id: 3,
  documentId: 'chef3',
  name: 'Ann',
  bio: 'Cooks.',
  recipes: [{ id: 7, documentId: 'rcp7' }],
  user: { id: 1, documentId: 'usr1' },
  avatar: null,
  ...written,
  locale: null,
};

const rawRecipe = () => ({
  id: 7,
  documentId: 'rcp7',
  title: 'Pancakes',
  slug: 'pancakes',
  secret_note: 'grandma',
  servings: 4,
  rating: '12.50',
  difficulty: 'easy',
  vegetarian: 1,
  cooked_at: at('2026-02-28T18:00:00.000Z'),
  tags: '["breakfast","sweet"]',
  steps: [{ type: 'paragraph', children: [{ type: 'text', text: 'Mix.' }] }],
  cover: rawFile(11),
  gallery: null,
  chef: rawChef(),
  mentions: [{ id: 1, __type: CHEF }],
  ingredients: [{ id: 21, name: 'Flour', quantity: '200.00', unit: 'g', recommended_by: rawChef(), stray: true }],
  sections: [
    { __component: 'kitchen.text-section', id: 31, heading: 'Batter', body: 'Whisk **well**.' },
    { __component: 'kitchen.tip', id: 32, text: 'Rest it.', photo: null },
    { __component: 'kitchen.removed', id: 33, text: 'gone' },
  ],
  createdBy: { id: 1, firstname: 'Admin', email: 'admin@example.com' },
  updatedBy: null,
  locale: 'en',
  localizations: [{ id: 8, documentId: 'rcp7', locale: 'fr' }],
  unknown_column: 'x',
  ...stamps,
  publishedAt: null,
});

describe('documentSchema', () => {
  const json = jsonSchema(documentSchema(source, RECIPE, 1));

  it('describes every public attribute, the identity and timestamps, as a closed object with every key required', () => {
    const keys = ['id', 'documentId', 'title', 'slug', 'servings', 'rating', 'difficulty', 'vegetarian', 'cooked_at', 'tags', 'steps'];
    const expected = [...keys, 'cover', 'gallery', 'chef', 'ingredients', 'sections', 'createdAt', 'updatedAt', 'publishedAt', 'locale'];
    expect(Object.keys(props(json))).toEqual(expected);
    expect(json.required).toEqual(expected);
    expect(json.additionalProperties).toBe(false);
    expect(json.$defs).toBeUndefined();
    expect(props(json).difficulty.anyOf).toEqual([{ type: 'string', enum: ['easy', 'medium', 'hard'] }, { type: 'null' }]);
    expect(props(json).gallery.type).toBe('array');
  });

  it('leaves out private, password, creator, localization and morph fields at every depth', () => {
    const text = JSON.stringify(jsonSchema(documentSchema(source, RECIPE, 3)));
    for (const key of [
      'secret_note',
      'password',
      'email',
      'createdBy',
      'updatedBy',
      'localizations',
      'mentions',
      'folderPath',
      'folder',
      'related',
    ]) {
      expect(text).not.toContain(`"${key}"`);
    }
  });

  it('fills relations and media in at depth 1, with their own relations as ids, and users as ids only', () => {
    const chef = objectOf(props(json).chef);
    expect(Object.keys(props(chef))).toEqual([
      'id',
      'documentId',
      'name',
      'bio',
      'recipes',
      'user',
      'avatar',
      'createdAt',
      'updatedAt',
      'publishedAt',
      'locale',
    ]);
    expect(chef.additionalProperties).toBe(false);
    expect(Object.keys(props((props(chef).recipes as { items: unknown }).items))).toEqual(['id', 'documentId']);
    expect(Object.keys(props(objectOf(props(chef).user)))).toEqual(['id', 'documentId']);
    expect(Object.keys(props(objectOf(props(json).cover)))).toContain('provider_metadata');
    const sections = (props(json).sections as { items: { oneOf: unknown[] } }).items.oneOf;
    expect(sections.map((item) => props(item).__component.const)).toEqual(['kitchen.text-section', 'kitchen.tip']);
    const atDepth0 = jsonSchema(documentSchema(source, RECIPE, 0));
    expect(Object.keys(props(objectOf(props(atDepth0).chef)))).toEqual(['id', 'documentId']);
    expect(Object.keys(props(objectOf(props(atDepth0).cover)))).toEqual(['id', 'documentId']);
  });

  it('describes a user as ids only at every depth', () => {
    for (const depth of [0, 1, 2, 3]) {
      const user = objectOf(props(jsonSchema(documentSchema(source, CHEF, depth))).user);
      expect(Object.keys(props(user))).toEqual(['id', 'documentId']);
    }
  });

  it('ends however types relate to each other, and bounds the depth to 0..3', () => {
    expect(JSON.stringify(jsonSchema(documentSchema(source, RECIPE, 3))).length).toBeLessThan(1_000_000);
    expect(jsonSchema(documentSchema(source, RECIPE, 10))).toEqual(jsonSchema(documentSchema(source, RECIPE, 3)));
    expect(jsonSchema(documentSchema(source, RECIPE, -1))).toEqual(jsonSchema(documentSchema(source, RECIPE, 0)));
    expect(() => documentSchema(source, 'api::nothing.nothing', 1)).toThrow(/no content type/);
  });
});

describe('exampleDocument', () => {
  it.each([0, 1, 2, 3])('fits the schema at depth %i', (depth) => {
    for (const uid of [RECIPE, CHEF]) {
      const example = exampleDocument(source, uid, depth);
      expect(documentSchema(source, uid, depth).parse(example)).toEqual(example);
      expect(exampleDocument(source, uid, depth)).toEqual(example);
    }
  });

  it('is plausible: example strings, first enum values, one-element lists, filled relations', () => {
    const example = exampleDocument(source, RECIPE, 1);
    expect(example).toMatchObject({
      id: 1,
      title: 'Example title',
      difficulty: 'easy',
      servings: 1,
      cooked_at: '2026-01-01T12:00:00.000Z',
      locale: 'en',
    });
    expect(example.documentId).toMatch(/^[a-z0-9]{24}$/);
    expect(example.gallery).toHaveLength(1);
    expect(example.sections).toEqual([{ __component: 'kitchen.text-section', id: 1, heading: 'Example heading', body: 'Example body' }]);
    expect(example.chef).toMatchObject({ name: 'Example name', user: { id: 1 }, locale: null });
    expect(Object.keys((example.chef as { user: object }).user)).toEqual(['id', 'documentId']);
  });
});

describe('project', () => {
  it('keeps what the schema says, normalised, and nothing else', () => {
    const projected = project(source, RECIPE, 1, rawRecipe());
    expect(projected).toStrictEqual({
      id: 7,
      documentId: 'rcp7',
      title: 'Pancakes',
      slug: 'pancakes',
      servings: 4,
      rating: 12.5,
      difficulty: 'easy',
      vegetarian: true,
      cooked_at: '2026-02-28T18:00:00.000Z',
      tags: ['breakfast', 'sweet'],
      steps: [{ type: 'paragraph', children: [{ type: 'text', text: 'Mix.' }] }],
      cover: writtenFile(11),
      gallery: [],
      chef: writtenChefAtDepth0,
      ingredients: [{ id: 21, name: 'Flour', quantity: 200, unit: 'g', recommended_by: writtenChefAtDepth0 }],
      sections: [
        { __component: 'kitchen.text-section', id: 31, heading: 'Batter', body: 'Whisk **well**.' },
        { __component: 'kitchen.tip', id: 32, text: 'Rest it.', photo: null },
      ],
      createdAt: CREATED,
      updatedAt: UPDATED,
      publishedAt: null,
      locale: 'en',
    });
    expect(documentSchema(source, RECIPE, 1).parse(projected)).toStrictEqual(projected);
  });

  it('fits the schema at every depth, with missing values as null and missing lists as empty', () => {
    for (const depth of [0, 1, 2, 3]) {
      expect(() => documentSchema(source, RECIPE, depth).parse(project(source, RECIPE, depth, rawRecipe()))).not.toThrow();
      expect(() => documentSchema(source, CHEF, depth).parse(project(source, CHEF, depth, rawChef()))).not.toThrow();
    }
    const bare = project(source, RECIPE, 2, {
      id: '9',
      documentId: 'rcp9',
      createdAt: CREATED,
      updatedAt: at(UPDATED),
      vegetarian: 0,
      rating: 3,
    });
    expect(bare).toMatchObject({
      id: 9,
      title: null,
      vegetarian: false,
      rating: 3,
      cover: null,
      gallery: [],
      chef: null,
      ingredients: [],
      sections: [],
    });
    expect(() => documentSchema(source, RECIPE, 2).parse(bare)).not.toThrow();
    expect(project(source, RECIPE, 0, rawRecipe()).chef).toStrictEqual({ id: 3, documentId: 'chef3' });
  });

  it('ends on documents that contain each other, at the deepest depth', () => {
    const recipe: Record<string, unknown> = rawRecipe();
    const chef = recipe.chef as Record<string, unknown>;
    chef.recipes = [recipe];
    const projected = project(source, RECIPE, 3, recipe);
    expect(documentSchema(source, RECIPE, 3).parse(projected)).toStrictEqual(projected);
    const chefAt2 = projected.chef as { recipes: Array<{ chef: { recipes: unknown[] } }> };
    expect(chefAt2.recipes[0].chef.recipes).toStrictEqual([{ id: 7, documentId: 'rcp7' }]);
  });

  it('writes a user as ids only at every depth', () => {
    for (const depth of [0, 1, 2, 3]) expect(project(source, CHEF, depth, rawChef()).user).toStrictEqual({ id: 1, documentId: 'usr1' });
  });

  it('normalises big integers, times, dates and booleans from their database forms', () => {
    const extra: ContentTypeSchema = type('api::event.event', {
      views: { type: 'biginteger' },
      starts: { type: 'time' },
      day: { type: 'date' },
      open: { type: 'boolean' },
      color: { type: 'customField', customField: 'plugin::color-picker.color' },
    });
    const withEvent: SchemaSource = {
      ...source,
      contentType: (uid) => (uid === extra.uid ? extra : source.contentType(uid)),
      customFieldType: () => 'string',
    };
    const doc = {
      id: 1,
      documentId: 'e1',
      views: 9007199254740993n,
      starts: '18:30:00',
      day: '2026-05-01',
      open: '0',
      color: '#ff0000',
      ...stamps,
    };
    const projected = project(withEvent, extra.uid, 0, doc);
    expect(projected).toMatchObject({ views: '9007199254740993', starts: '18:30:00', day: '2026-05-01', open: false, color: '#ff0000' });
    expect(
      project(withEvent, extra.uid, 0, { ...doc, views: 12, starts: '18:30', day: at('2026-05-01T00:00:00.000Z'), open: 'maybe' })
    ).toMatchObject({
      views: '12',
      starts: '18:30:00',
      day: '2026-05-01',
      open: null,
    });
    expect(() => documentSchema(withEvent, extra.uid, 0).parse(projected)).not.toThrow();
    expect(props(jsonSchema(documentSchema(withEvent, extra.uid, 0))).color).toEqual({ type: ['string', 'null'] });
  });

  it('refuses a document without its identity', () => {
    expect(() => project(source, RECIPE, 0, { id: 1, createdAt: CREATED, updatedAt: CREATED })).toThrow(/documentId/);
  });
});

describe('populateFor', () => {
  it('reads ids only at depth 0, components and dynamic zones with their own relations', () => {
    const ids = { fields: ['documentId'] };
    expect(populateFor(source, RECIPE, 0)).toEqual({
      cover: ids,
      gallery: ids,
      chef: ids,
      ingredients: { populate: { recommended_by: ids } },
      sections: { on: { 'kitchen.text-section': true, 'kitchen.tip': { populate: { photo: ids } } } },
    });
  });

  it('fills related documents in at depth 1 and 2, users always as ids', () => {
    const ids = { fields: ['documentId'] };
    const chefAt0 = { populate: { recipes: ids, user: ids, avatar: ids } };
    expect(populateFor(source, RECIPE, 1)).toEqual({
      cover: true,
      gallery: true,
      chef: chefAt0,
      ingredients: { populate: { recommended_by: chefAt0 } },
      sections: { on: { 'kitchen.text-section': true, 'kitchen.tip': { populate: { photo: true } } } },
    });
    const atDepth2 = populateFor(source, RECIPE, 2);
    expect(atDepth2.chef).toEqual({ populate: { recipes: { populate: populateFor(source, RECIPE, 0) }, user: ids, avatar: true } });
    expect(populateFor(source, CHEF, 3)).toMatchObject({
      user: ids,
      recipes: { populate: { chef: { populate: { recipes: { populate: { chef: ids } } } } } },
    });
  });
});

describe('answerSchema', () => {
  it('accepts any part of a document, with extra keys, and still checks the types', () => {
    const schema = answerSchema(source, RECIPE);
    expect(schema.safeParse({}).success).toBe(true);
    expect(
      schema.safeParse({
        id: 1,
        documentId: 'rcp7',
        title: 'Pancakes',
        chef: { id: 3, name: 'Ann', recipes: [{ id: 7, title: 'x' }] },
        extra: 1,
      }).success
    ).toBe(true);
    expect(
      schema.safeParse({ sections: [{ __component: 'kitchen.tip', text: 'Rest it.' }], cover: { url: '/x.jpg' }, gallery: [] }).success
    ).toBe(true);
    expect(schema.safeParse({ servings: 'four' }).success).toBe(false);
    expect(schema.safeParse({ chef: [] }).success).toBe(false);
  });

  it('has no private field, requires nothing, and has a locale only on localized types', () => {
    const recipe = jsonSchema(answerSchema(source, RECIPE));
    expect(recipe.required).toBeUndefined();
    expect(recipe.additionalProperties).not.toBe(false);
    expect(props(recipe).locale).toBeDefined();
    expect(props(jsonSchema(answerSchema(source, CHEF))).locale).toBeUndefined();
    const text = JSON.stringify(recipe);
    for (const key of ['secret_note', 'password', 'email', 'createdBy', 'mentions', 'folderPath']) expect(text).not.toContain(`"${key}"`);
  });
});

describe('inputSchema', () => {
  const schema = inputSchema(source, RECIPE);

  it('accepts writable attributes: scalars, relations by documentId, media by file id, components', () => {
    expect(schema.parse({ title: 'Pancakes', chef: 'chef3', cover: 5 })).toEqual({ title: 'Pancakes', chef: 'chef3', cover: 5 });
    const full = {
      secret_note: 'grandma',
      rating: 4.5,
      tags: ['x'],
      chef: { connect: ['chef3'], disconnect: [] },
      gallery: [5, 6],
      ingredients: [
        { name: 'Flour', recommended_by: null },
        { id: 21, quantity: 2 },
      ],
      sections: [{ __component: 'kitchen.tip', text: 'Rest it.', photo: 5 }],
    };
    expect(schema.safeParse(full).success).toBe(true);
  });

  it('refuses what is not written through the content API', () => {
    for (const data of [{ id: 1 }, { documentId: 'x' }, { createdBy: 1 }, { createdAt: CREATED }, { localizations: [] }, { unknown: 1 }]) {
      expect(schema.safeParse(data).success).toBe(false);
    }
    expect(schema.safeParse({ sections: [{ __component: 'kitchen.removed' }] }).success).toBe(false);
    expect(schema.safeParse({ cover: 'file.jpg' }).success).toBe(false);
  });
});

describe('in the OpenAPI document', () => {
  it('converts without local definitions the converter would drop', () => {
    const document = buildOpenApiDocument({ title: 'Recipes', version: '1' }, [
      {
        components: {
          Recipe: answerSchema(source, RECIPE),
          RecipeInput: inputSchema(source, RECIPE),
          RecipeEvent: documentSchema(source, RECIPE, 3),
        },
      },
    ]);
    expect(Object.keys(document.components.schemas)).toEqual(['Recipe', 'RecipeInput', 'RecipeEvent']);
    expect(JSON.stringify(document)).not.toContain('$ref');
  });
});

describe('sourceOf', () => {
  const strapiGlobal = globalThis as { strapi?: unknown };

  afterEach(() => {
    delete strapiGlobal.strapi;
  });

  it("reads Strapi's registries, and its notion of private attributes (the global privateAttributes included)", () => {
    const fake = {
      contentTypes: structuredClone(contentTypes),
      components: structuredClone(components),
      get: (name: string) => ({
        get: (uid: string) => (name === 'custom-fields' && uid === 'plugin::color-picker.color' ? { type: 'string' } : undefined),
      }),
      config: { get: (key: string, fallback?: unknown) => (key === 'api.responses.privateAttributes' ? ['bio'] : fallback) },
    };
    // Strapi's check reads the global configuration through the `strapi` global.
    strapiGlobal.strapi = fake;
    const real = sourceOf(fake as unknown as Core.Strapi);
    expect(real.contentType(RECIPE)?.uid).toBe(RECIPE);
    expect(real.contentType('toString')).toBeUndefined();
    expect(real.component('kitchen.tip')?.uid).toBe('kitchen.tip');
    expect(real.isPrivate({ uid: RECIPE }, 'secret_note')).toBe(true);
    expect(real.isPrivate({ uid: CHEF }, 'bio')).toBe(true);
    expect(real.isPrivate({ uid: CHEF }, 'name')).toBe(false);
    expect(real.customFieldType?.('plugin::color-picker.color')).toBe('string');
    expect(Object.keys(props(jsonSchema(documentSchema(real, CHEF, 0))))).toEqual([
      'id',
      'documentId',
      'name',
      'recipes',
      'user',
      'avatar',
      'createdAt',
      'updatedAt',
      'publishedAt',
      'locale',
    ]);
  });
});
