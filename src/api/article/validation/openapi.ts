import { z } from 'zod';
import type { ContractKit } from '../../../plugins/api-suite/server/src/contract/kit';
import type { ApiDescription } from '../../../plugins/api-suite/server/src/contract/openapi';
import {
  article,
  articleList,
  articleResponse,
  articleStatus,
  authorSummary,
  comment,
  commentList,
  keysetMeta,
  offsetMeta,
} from './responses';
import { articleRef, commentsQuery, createBody, includeQuery, listQuery, patchBody, putBody } from './v1';

/**
 * `/api/v1/articles` as the OpenAPI document shows it: the zod schemas the routes validate with
 * (`./v1`) and answer in (`./responses`). The api-suite plugin assembles the document; it hands over its
 * shared pieces (error responses, rate-limit headers) as `kit` at run time, since the host app is
 * compiled without the plugin's source.
 */

const articleId = z.object({
  id: articleRef.meta({ description: "The article's UUID or its numeric id; anything else, or an unknown one, is 404." }),
});

const listParameters = {
  page: 'Page number, from 1.',
  limit: 'Items per page (out of range → 400).',
  per_page: 'Another name for `limit` (giving both with different values is 400).',
  status: 'Only articles in this status.',
  author_id: "Only this author's articles.",
  created_after: 'Only articles created strictly after this date or date-time.',
  sort: 'Sort field.',
  order: 'Sort direction.',
  include: 'Comma-separated relations to embed, from `author,comments`; any other name is 400.',
  after_id: 'Keyset paging: the items after this article (the last id of the previous page) in the current order.',
};

export function articlesApi({ guarded, ok, shared }: ContractKit): ApiDescription {
  const tags = ['Articles'];
  // PUT and PATCH answer alike.
  const changed = guarded({
    '200': ok('The article as it now is.', articleResponse),
    '400': shared('BadRequest'),
    '404': shared('NotFound'),
    '409': shared('Conflict'),
    '422': shared('UnprocessableEntity'),
  });
  return {
    tags: [{ name: 'Articles', description: 'Editorial articles and their comments.' }],
    components: {
      ArticleStatus: articleStatus,
      AuthorSummary: authorSummary,
      Comment: comment,
      Article: article,
      OffsetMeta: offsetMeta,
      KeysetMeta: keysetMeta,
      ArticleList: articleList,
      ArticleResponse: articleResponse,
      CommentList: commentList,
    },
    operations: [
      {
        method: 'get',
        path: '/api/v1/articles',
        operationId: 'listArticles',
        summary: 'List articles',
        description:
          'Newest first by default. Offset paging (`page`, `limit`) answers `meta: { page, limit, total, pages }`; keyset paging (`after_id`, the last id of the previous page, with `limit`) answers `meta: { limit, next_after_id, has_more }`. `page` and `after_id` cannot be combined. Ordering always ends with the id, in the same direction. Every valid credential reads articles in every status.',
        tags,
        security: 'read',
        query: listQuery,
        parameterDescriptions: listParameters,
        responses: guarded({ '200': ok('A page of articles.', articleList), '400': shared('BadRequest') }),
      },
      {
        method: 'post',
        path: '/api/v1/articles',
        operationId: 'createArticle',
        summary: 'Create an article',
        description: 'Unknown fields are refused (400). `status` defaults to `draft`; the slug is made from the title when absent.',
        tags,
        security: 'write',
        body: { required: true, json: createBody },
        responses: guarded({
          '201': ok('The new article.', articleResponse),
          '400': shared('BadRequest'),
          '409': shared('Conflict'),
          '422': shared('UnprocessableEntity'),
        }),
      },
      {
        method: 'get',
        path: '/api/v1/articles/{id}',
        operationId: 'getArticle',
        summary: 'Get an article',
        tags,
        security: 'read',
        params: articleId,
        query: includeQuery,
        parameterDescriptions: { include: listParameters.include },
        responses: guarded({ '200': ok('The article.', articleResponse), '400': shared('BadRequest'), '404': shared('NotFound') }),
      },
      {
        method: 'put',
        path: '/api/v1/articles/{id}',
        operationId: 'replaceArticle',
        summary: 'Replace an article',
        description: 'Every field: optional fields left out become null, except `slug`, which is kept. Unknown fields are refused (400).',
        tags,
        security: 'write',
        params: articleId,
        body: { required: true, json: putBody },
        responses: changed,
      },
      {
        method: 'patch',
        path: '/api/v1/articles/{id}',
        operationId: 'updateArticle',
        summary: 'Change some fields of an article',
        description: 'Only the fields named change; at least one is needed. Unknown fields are refused (400).',
        tags,
        security: 'write',
        params: articleId,
        body: { required: true, json: patchBody },
        responses: changed,
      },
      {
        method: 'delete',
        path: '/api/v1/articles/{id}',
        operationId: 'deleteArticle',
        summary: 'Delete an article',
        tags,
        security: 'write',
        params: articleId,
        responses: guarded({ '204': shared('NoContent'), '404': shared('NotFound') }),
      },
      {
        method: 'get',
        path: '/api/v1/articles/{id}/comments',
        operationId: 'listArticleComments',
        summary: "List an article's comments",
        description: 'Oldest first.',
        tags,
        security: 'read',
        params: articleId,
        query: commentsQuery,
        parameterDescriptions: { page: listParameters.page, limit: listParameters.limit },
        responses: guarded({ '200': ok('A page of comments.', commentList), '400': shared('BadRequest'), '404': shared('NotFound') }),
      },
    ],
  };
}
