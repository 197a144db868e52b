import { CLOSING_PHASES, type AccountPart } from '../types';

/** The parts features add (docs/accounts.md): what export and closing go through. */
const accountPartsService = () => {
  const parts: AccountPart[] = [];
  return {
    /** Add a part (features call it at register time). */
    add(part: AccountPart): void {
      if (parts.some((known) => known.name === part.name))
        throw new Error(`api-suite: an account part named "${part.name}" is added twice`);
      parts.push(part);
    },
    /** Every part, in closing order: by phase, then as added. */
    list(): AccountPart[] {
      return CLOSING_PHASES.flatMap((phase) => parts.filter((part) => (part.phase ?? 'records') === phase));
    },
  };
};

export type AccountPartsService = ReturnType<typeof accountPartsService>;
export default accountPartsService;
