import { factories } from '@strapi/strapi';
import { visibleOnly } from '../../../lib/visibility';

export default factories.createCoreController('api::page.page', ({ strapi }) => visibleOnly(strapi, 'api::page.page', { publishedOnly: true }));
