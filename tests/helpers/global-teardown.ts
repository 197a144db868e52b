export default async function globalTeardown(): Promise<void> {
  // Each test file drops its own database and closes its own app; nothing is shared to undo.
}
