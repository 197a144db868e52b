import type { Core } from '@strapi/strapi';
import { freeSlug } from '../../../lib/slug';
import { v1Http } from '../../../lib/v1';
import type { V1Article, V1Comment } from '../validation/responses';
import { splitList, type ArticleInput, type ListQuery } from '../validation/v1';

const ARTICLE = 'api::article.article';
const AUTHOR = 'api::author.author';
const COMMENT = 'api::comment.comment';

export type { V1Article, V1Comment };

interface ArticleRow {
  id: number;
  documentId: string;
  uuid: string;
  title: string;
  slug: string | null;
  status: V1Article['status'];
  excerpt: string | null;
  body: string | null;
  createdAt: string | Date;
  updatedAt: string | Date;
  author?: { id: number; name: string } | null;
  comments?: Array<{ id: number; body: string; author_name: string | null; createdAt: string | Date }>;
}

/**
 * The versioned articles resource. Reads go straight to the query engine (one count and one
 * page query, or one keyset query); writes go through the document service so lifecycles
 * (the article UUID, content events) run as they do for the admin panel.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const query = () => strapi.db.query(ARTICLE);
  const { ApiError: V1Error } = v1Http(strapi);

  const populateFor = (include: string | undefined) => {
    const names = splitList(include);
    return {
      author: { select: ['id', 'name'] },
      ...(names.includes('comments')
        ? { comments: { select: ['id', 'body', 'author_name', 'createdAt'], orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } }
        : {}),
    };
  };

  const present = (row: ArticleRow, include: string | undefined): V1Article => {
    const names = splitList(include);
    return {
      id: row.uuid,
      title: row.title,
      slug: row.slug,
      status: row.status,
      excerpt: row.excerpt ?? null,
      body: row.body ?? null,
      author_id: row.author?.id ?? null,
      createdAt: new Date(row.createdAt).toISOString(),
      updatedAt: new Date(row.updatedAt).toISOString(),
      ...(names.includes('author') ? { author: row.author ? { id: row.author.id, name: row.author.name } : null } : {}),
      ...(names.includes('comments') ? { comments: (row.comments ?? []).map((comment) => toComment(comment, row.uuid)) } : {}),
    };
  };

  /** The row behind a path id: the article's UUID, or its numeric id. */
  const findRow = async (ref: string, include?: string): Promise<ArticleRow> => {
    const where = /^\d+$/.test(ref) ? { id: Number(ref) } : { uuid: ref.toLowerCase() };
    const row = (await query().findOne({ where, populate: populateFor(include) })) as ArticleRow | null;
    if (!row) throw new V1Error(404, 'not_found', 'Article not found');
    return row;
  };

  const authorDocumentId = async (authorId: number | null | undefined): Promise<string | null | undefined> => {
    if (authorId === undefined) return undefined;
    if (authorId === null) return null;
    const author = await strapi.db.query(AUTHOR).findOne({ where: { id: authorId }, select: ['documentId'] });
    if (!author)
      throw new V1Error(422, 'unknown_author', `Author ${authorId} does not exist`, [{ field: 'author_id', message: 'no such author' }]);
    return author.documentId as string;
  };

  const assertSlugFree = async (slug: string, exceptId?: number) => {
    const taken = await query().findOne({ where: { slug, ...(exceptId ? { id: { $ne: exceptId } } : {}) }, select: ['id'] });
    if (taken)
      throw new V1Error(409, 'slug_taken', `The slug "${slug}" is already used by another article`, [
        { field: 'slug', message: 'already in use' },
      ]);
  };

  const write = async (fn: () => Promise<unknown>, slug: string | undefined) => {
    try {
      return await fn();
    } catch (error) {
      // Two writers racing for one slug: the unique index decides, and the loser gets a 409.
      if (slug && isUniqueViolation(error))
        throw new V1Error(409, 'slug_taken', `The slug "${slug}" is already used by another article`, [
          { field: 'slug', message: 'already in use' },
        ]);
      throw error;
    }
  };

  return {
    async list(params: ListQuery, limit: number) {
      const where: Record<string, unknown> = {};
      if (params.status) where.status = params.status;
      if (params.author_id) where.author = { id: params.author_id };
      if (params.created_after) where.createdAt = { $gt: new Date(params.created_after) };
      const direction = params.order;
      const orderBy = [{ [params.sort]: direction }, { id: direction }];
      const populate = populateFor(params.include);

      if (params.after_id !== undefined) {
        const anchor = await findRow(params.after_id).catch(() => {
          throw new V1Error(400, 'validation_error', 'after_id: does not name an article', [
            { field: 'after_id', message: 'does not name an article' },
          ]);
        });
        // Rows strictly after the anchor in (sort field, id) order: ties on the sort field are
        // broken by id, so no row is skipped or repeated, and rows inserted meanwhile either
        // come after the anchor or not, never shifting the pages already read.
        const value = params.sort === 'title' ? anchor.title : new Date(anchor[params.sort]);
        const op = direction === 'asc' ? '$gt' : '$lt';
        const keyset = { $or: [{ [params.sort]: { [op]: value } }, { [params.sort]: value, id: { [op]: anchor.id } }] };
        const rows = (await query().findMany({ where: { $and: [where, keyset] }, orderBy, limit: limit + 1, populate })) as ArticleRow[];
        const page = rows.slice(0, limit);
        const hasMore = rows.length > limit;
        return {
          data: page.map((row) => present(row, params.include)),
          meta: { limit, next_after_id: hasMore ? page[page.length - 1].uuid : null, has_more: hasMore },
        };
      }

      const pageNumber = params.page ?? 1;
      const [rows, total] = await Promise.all([
        query().findMany({ where, orderBy, limit, offset: (pageNumber - 1) * limit, populate }) as Promise<ArticleRow[]>,
        query().count({ where }),
      ]);
      return {
        data: rows.map((row) => present(row, params.include)),
        meta: { page: pageNumber, limit, total, pages: Math.ceil(total / limit) },
      };
    },

    /** 404 for an article that does not exist: loaded before a body is read, so an unknown article answers 404 whatever the body. */
    async assertExists(ref: string): Promise<void> {
      await findRow(ref);
    },

    async findOne(ref: string, include?: string): Promise<V1Article> {
      return present(await findRow(ref, include), include);
    },

    async create(input: ArticleInput & { title: string }): Promise<V1Article> {
      const author = await authorDocumentId(input.author_id);
      const slug = input.slug ?? (await freeSlug(strapi, ARTICLE, input.title, 'article'));
      if (input.slug) await assertSlugFree(input.slug);
      const created = (await write(
        () =>
          strapi.documents(ARTICLE).create({
            data: {
              title: input.title,
              slug,
              status: input.status ?? 'draft',
              excerpt: input.excerpt ?? null,
              body: input.body ?? null,
              ...(author !== undefined ? { author } : {}),
            },
          }),
        slug
      )) as { id: number };
      return this.findOne(String(created.id));
    },

    /** PUT replaces every field (absent optional ones become null, the slug is kept); PATCH changes only what it names. */
    async update(ref: string, input: ArticleInput, mode: 'put' | 'patch'): Promise<V1Article> {
      const row = await findRow(ref);
      const author = await authorDocumentId(input.author_id);
      if (input.slug && input.slug !== row.slug) await assertSlugFree(input.slug, row.id);
      const data: Record<string, unknown> =
        mode === 'put'
          ? {
              title: input.title,
              status: input.status,
              excerpt: input.excerpt ?? null,
              body: input.body ?? null,
              author: author ?? null,
              ...(input.slug ? { slug: input.slug } : {}),
            }
          : {
              ...pick(input, ['title', 'slug', 'status', 'excerpt', 'body']),
              ...(author !== undefined ? { author } : {}),
            };
      await write(() => strapi.documents(ARTICLE).update({ documentId: row.documentId, data }), input.slug);
      return this.findOne(String(row.id));
    },

    async remove(ref: string): Promise<void> {
      const row = await findRow(ref);
      await strapi.documents(ARTICLE).delete({ documentId: row.documentId });
    },

    async comments(ref: string, page: number, limit: number) {
      const row = await findRow(ref);
      const where = { article: { id: row.id } };
      const [rows, total] = await Promise.all([
        strapi.db.query(COMMENT).findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], limit, offset: (page - 1) * limit }),
        strapi.db.query(COMMENT).count({ where }),
      ]);
      return {
        data: rows.map((comment: { id: number; body: string; author_name: string | null; createdAt: string | Date }) =>
          toComment(comment, row.uuid)
        ),
        meta: { page, limit, total, pages: Math.ceil(total / limit) },
      };
    },
  };
};

function toComment(
  comment: { id: number; body: string; author_name: string | null; createdAt: string | Date },
  articleId: string
): V1Comment {
  return {
    id: comment.id,
    body: comment.body,
    author_name: comment.author_name ?? null,
    article_id: articleId,
    createdAt: new Date(comment.createdAt).toISOString(),
  };
}

function pick<T extends object, K extends keyof T>(source: T, keys: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]])) as Partial<Pick<T, K>>;
}

function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; message?: string } | undefined;
  return candidate?.code === '23505' || candidate?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /unique/i.test(candidate?.message ?? '');
}
