import {
  concretePath,
  curlExample,
  exampleOf,
  fetchExample,
  groupByTag,
  schemaText,
  type OpenApiDocument,
} from '../../src/plugins/api-suite/portal/src/pages/Reference/document';

/** How the portal's API reference reads an OpenAPI document: a small one with a cycle, a shared response and a body. */
const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  tags: [
    { name: 'Things', description: 'All the `things`.' },
    { name: 'Empty', description: 'No operation.' },
  ],
  paths: {
    '/api/v1/things/{id}': {
      get: {
        operationId: 'getThing',
        summary: 'One thing',
        tags: ['Things'],
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
          {
            name: 'expand',
            in: 'query',
            required: false,
            schema: {
              anyOf: [
                { type: 'string', pattern: 'a' },
                { type: 'string', pattern: 'b' },
              ],
            },
          },
        ],
        responses: {
          '200': { description: 'The thing.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
    },
    '/api/v1/things': {
      post: {
        operationId: 'createThing',
        summary: 'Make one',
        tags: ['Things'],
        security: [],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  name: { type: 'string', examples: ["O'Brien"] },
                  at: { type: 'string', format: 'date-time' },
                  note: { type: 'string' },
                },
                required: ['name', 'at'],
                additionalProperties: false,
              },
            },
          },
        },
        responses: { '201': { description: 'Made.' } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          parent: { anyOf: [{ $ref: '#/components/schemas/Thing' }, { type: 'null' }], description: 'The thing above.' },
          'odd-name': { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
        },
        required: ['id', 'parent'],
      },
    },
    responses: { NotFound: { description: 'No such thing.' } },
  },
};

it('groups operations by tag in the document order, leaving out empty tags, and follows shared responses', () => {
  const groups = groupByTag(document);
  expect(groups.map((group) => [group.name, group.operations.map((operation) => operation.id)])).toEqual([
    ['Things', ['getThing', 'createThing']],
  ]);
  const [get, post] = groups[0].operations;
  expect(get.open).toBe(false);
  expect(post.open).toBe(true);
  expect(get.responses.map((response) => [response.status, response.description])).toEqual([
    ['200', 'The thing.'],
    ['404', 'No such thing.'],
  ]);
  expect(post.body).toMatchObject({ required: true, type: 'application/json' });
});

it('writes a schema as type text, each named schema once even when it refers to itself', () => {
  expect(schemaText(document, { $ref: '#/components/schemas/Thing' })).toBe(
    [
      'Thing',
      '',
      'type Thing = {',
      '  id: integer;',
      '  // The thing above.',
      '  parent: Thing | null;',
      '  "odd-name"?: ("a" | "b")[];',
      '}',
    ].join('\n')
  );
  // Two variants that read the same are said once.
  expect(schemaText(document, groupByTag(document)[0].operations[0].parameters[1].schema)).toBe('string');
});

it("makes an example body of the required fields, preferring the schema's own examples", () => {
  const post = groupByTag(document)[0].operations[1];
  expect(exampleOf(document, post.body?.schema)).toEqual({ name: "O'Brien", at: '2026-01-01T00:00:00.000Z' });
  // A schema that refers to itself ends, a few levels down, in null.
  expect(exampleOf(document, { $ref: '#/components/schemas/Thing' })).toEqual({ id: 1, parent: { id: 1, parent: null } });
});

it('fills the path, encoded, and the query, and writes curl and fetch calls with the key from the environment', () => {
  const [get, post] = groupByTag(document)[0].operations;
  expect(concretePath(get, {})).toBe('/api/v1/things/{id}');
  expect(concretePath(get, { 'path:id': 'a/b', 'query:expand': 'x y', 'query:other': 'no' })).toBe('/api/v1/things/a%2Fb?expand=x+y');
  expect(curlExample('https://api.test', get, '/api/v1/things/1', undefined)).toBe(
    `curl -X GET 'https://api.test/api/v1/things/1' \\\n  -H "X-API-Key: $API_KEY"`
  );
  // An open route sends no key; a quote in the body is escaped for the shell.
  const body = JSON.stringify({ name: "O'Brien" });
  expect(curlExample('https://api.test', post, '/api/v1/things', body)).toBe(
    `curl -X POST 'https://api.test/api/v1/things' \\\n  -H 'Content-Type: application/json' \\\n  --data '{"name":"O'\\''Brien"}'`
  );
  expect(fetchExample('https://api.test', get, '/api/v1/things/1', undefined)).toContain(`headers: { 'X-API-Key': process.env.API_KEY },`);
  expect(fetchExample('https://api.test', post, '/api/v1/things', body)).not.toContain('X-API-Key');
});
