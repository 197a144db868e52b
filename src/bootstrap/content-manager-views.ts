import type { ContentManagerView } from '../plugins/api-suite/server/src/features/platform/services/content-manager-views';

/**
 * How the Content Manager lists and edits the site's own content, declared in code so a new
 * database gets it (the api-suite plugin writes it, and writes it again when this changes; an
 * editor's own "Configure the view" changes stand until then).
 */
export const contentManagerViews: Record<string, ContentManagerView> = {
  'api::article.article': {
    mainField: 'title',
    sort: { by: 'createdAt', order: 'DESC' },
    // Newest first by creation, but only the last change is shown: five columns do not fit 1440 px.
    list: ['title', 'status', 'author', 'updatedAt'],
    edit: [['title', 'slug'], ['status', 'author'], ['excerpt'], ['body'], ['comments', 'uuid']],
    labels: {
      title: 'Title',
      slug: 'Slug',
      status: 'Status',
      author: 'Author',
      excerpt: 'Excerpt',
      body: 'Body',
      comments: 'Comments',
      uuid: 'UUID',
      createdAt: 'Created',
      updatedAt: 'Updated',
    },
    descriptions: { status: 'Only published articles are public; drafts and archived ones need an API key or a signed-in user' },
    readOnlyFields: ['uuid'],
  },
  'api::author.author': {
    mainField: 'name',
    sort: { by: 'name', order: 'ASC' },
    list: ['name', 'email', 'articles', 'updatedAt'],
    edit: [['name', 'email'], ['articles']],
    labels: { name: 'Name', email: 'E-mail', articles: 'Articles', updatedAt: 'Updated' },
  },
  'api::comment.comment': {
    mainField: 'body',
    sort: { by: 'createdAt', order: 'DESC' },
    list: ['body', 'author_name', 'article', 'createdAt'],
    edit: [['author_name', 'article'], ['body']],
    labels: { body: 'Comment', author_name: 'Written by', article: 'On article', createdAt: 'Written' },
  },
  'api::page.page': {
    mainField: 'title',
    sort: { by: 'updatedAt', order: 'DESC' },
    list: ['title', 'slug', 'updatedAt'],
    edit: [['title', 'slug'], ['body']],
    labels: { title: 'Title', slug: 'Slug', body: 'Body', updatedAt: 'Updated' },
  },
  'api::product.product': {
    mainField: 'name',
    sort: { by: 'menuindex', order: 'ASC' },
    list: ['name', 'price', 'stock', 'published', 'menuindex', 'updatedAt'],
    edit: [
      ['name', 'slug'],
      [
        ['price', 4],
        ['stock', 4],
        ['menuindex', 4],
      ],
      [
        ['published', 4],
        ['deleted', 4],
      ],
      ['description', 'image'],
    ],
    labels: {
      name: 'Name',
      slug: 'Slug',
      price: 'Price ({currency})',
      stock: 'In stock',
      menuindex: 'Position',
      published: 'Published',
      deleted: 'Deleted',
      description: 'Description',
      image: 'Image',
      updatedAt: 'Updated',
    },
    descriptions: {
      published: 'Shown in the shop, the feed and search',
      deleted: 'Kept for the orders that name it, but no longer sold or shown',
      menuindex: 'The feed and the shop list products by this, lowest first',
    },
  },
};
