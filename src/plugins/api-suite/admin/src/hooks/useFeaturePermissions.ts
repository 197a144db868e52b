import { useRBAC } from '@strapi/strapi/admin';
import { PERMISSIONS, type Feature } from '../permissions';

export interface FeaturePermissions {
  isLoading: boolean;
  canRead: boolean;
  canManage: boolean;
}

/** What the signed-in editor may do on one page: read it, and change things on it. */
export function useFeaturePermissions(feature: Feature): FeaturePermissions {
  const { allowedActions, isLoading } = useRBAC([...PERMISSIONS[feature].read, ...PERMISSIONS[feature].manage]);
  return { isLoading, canRead: Boolean(allowedActions.canRead), canManage: Boolean(allowedActions.canManage) };
}
