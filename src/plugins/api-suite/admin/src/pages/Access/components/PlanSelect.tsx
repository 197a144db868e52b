import { SingleSelect, SingleSelectOption } from '@strapi/design-system';

/** The select's value for "no plan of its own" (the first option); plan ids are never 0. */
const NONE = '0';

/**
 * A plan, or none: the first option stands for no plan (a key that follows its owner, a consumer
 * without a grant), labelled by the caller. Goes inside a `Field.Root` with its label and hint.
 */
export function PlanSelect({
  plans,
  value,
  onChange,
  noneLabel,
}: {
  plans: Array<{ id: number; name: string }>;
  value: number | null;
  onChange: (planId: number | null) => void;
  noneLabel: string;
}) {
  return (
    <SingleSelect value={value === null ? NONE : String(value)} onChange={(next) => onChange(String(next) === NONE ? null : Number(next))}>
      <SingleSelectOption value={NONE}>{noneLabel}</SingleSelectOption>
      {plans.map((plan) => (
        <SingleSelectOption key={plan.id} value={String(plan.id)}>
          {plan.name}
        </SingleSelectOption>
      ))}
    </SingleSelect>
  );
}
