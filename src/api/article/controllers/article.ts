import { factories } from '@strapi/strapi';

// What the Public role sees of articles (status published) is enforced for every content-API read by src/lib/visibility.ts.
export default factories.createCoreController('api::article.article');
