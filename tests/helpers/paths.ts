import path from 'node:path';

export const APP_DIR = path.resolve(__dirname, '..', '..');
export const DIST_DIR = path.join(APP_DIR, 'dist');
export const TEST_TMP_DIR = path.join(APP_DIR, '.tmp', 'tests');
