import { factories } from '@strapi/strapi';
import { visibleOnly } from '../../../lib/visibility';

export default factories.createCoreController('api::product.product', ({ strapi }) => visibleOnly(strapi, 'api::product.product', { visible: { published: true, deleted: false } }));
