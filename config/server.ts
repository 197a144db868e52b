import type { Core } from '@strapi/strapi';
import { appKeys } from '../src/lib/secrets';

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Server => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  app: {
    keys: appKeys(),
  },
});

export default config;
