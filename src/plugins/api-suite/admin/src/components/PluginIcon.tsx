import { Key } from '@strapi/icons';

export const PluginIcon = () => <Key />;
