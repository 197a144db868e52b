import { factories } from '@strapi/strapi';

// What the Public role sees of pages (the published version only) is enforced for every content-API read by src/lib/visibility.ts.
export default factories.createCoreController('api::page.page');
