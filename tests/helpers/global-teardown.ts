import { dropTemplate } from './database-template';

export default async function globalTeardown(): Promise<void> {
  // Each test file drops its own database and closes its own app; only the run's template is shared.
  await dropTemplate();
}
