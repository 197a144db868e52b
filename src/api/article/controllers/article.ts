import { factories } from '@strapi/strapi';
import { visibleOnly } from '../../../lib/visibility';

export default factories.createCoreController('api::article.article', ({ strapi }) => visibleOnly(strapi, 'api::article.article', { visible: { status: 'published' } }));
