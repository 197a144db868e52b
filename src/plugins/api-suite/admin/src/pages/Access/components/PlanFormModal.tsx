import { Box, Button, Field, Grid, Modal, NumberInput, TextInput, Textarea, Toggle, Typography } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient, type Plan, type PlanInput } from '../../../api';
import { ProblemAlert } from '../../../components/ProblemAlert';
import { useAction } from '../../../hooks/useAction';
import { fieldError } from '../../../../../shared/http';
import { useT } from '../../../utils/useT';

/** Create or edit a plan; the server validates and its messages appear under each field. */
export function PlanFormModal({
  plan,
  currency,
  groups,
  onClose,
  onSaved,
}: {
  plan?: Plan;
  currency?: string;
  groups?: { public: string[]; private: string[] };
  onClose: () => void;
  onSaved: () => void;
}) {
  const t = useT();
  const client = useApiSuiteClient();
  const { run, busy, problem } = useAction();
  const [name, setName] = useState(plan?.name ?? '');
  const [perMonth, setPerMonth] = useState<number | undefined>(plan?.requests_per_month ?? 1000);
  const [perMinute, setPerMinute] = useState<number | undefined>(plan?.requests_per_minute ?? 10);
  const [endpoints, setEndpoints] = useState((plan?.endpoints ?? ['@public']).join('\n'));
  const [price, setPrice] = useState<number | undefined>(plan?.price_monthly ?? 0);
  const [isDefault, setIsDefault] = useState(plan?.is_default ?? false);
  const [planCurrency, setPlanCurrency] = useState(plan?.currency ?? '');
  const [overage, setOverage] = useState<number | undefined>(plan?.overage_unit_amount ?? undefined);
  const error = (field: string) => fieldError(problem, field);

  const save = async () => {
    // Empty numbers go as null so the server names the field rather than a default hiding it.
    const input: PlanInput = {
      name,
      requests_per_month: perMonth ?? null,
      requests_per_minute: perMinute ?? null,
      endpoints: endpoints
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
      price_monthly: price ?? null,
      is_default: isDefault,
      currency: planCurrency.trim() === '' ? null : planCurrency.trim().toLowerCase(),
      overage_unit_amount: overage ?? null,
    };
    const saved = await run('save', () => (plan ? client.access.updatePlan(plan.id, input) : client.access.createPlan(input)), {
      success: plan ? 'form.saved' : 'access.plans.created',
      quiet: true,
    });
    if (saved) onSaved();
  };

  const generalProblem = problem && Object.keys(problem.fields).filter((field) => field !== '').length === 0;

  return (
    <Modal.Root open onOpenChange={(open) => !open && onClose()}>
      <Modal.Content>
        <Modal.Header>
          <Modal.Title>{plan ? t('access.plans.edit', { name: plan.name }) : t('access.plans.new')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {generalProblem && <ProblemAlert problem={problem} />}
          <Grid.Root gap={4}>
            <Grid.Item col={12} direction="column" alignItems="stretch">
              <Field.Root name="name" error={error('name')} required>
                <Field.Label>{t('access.plans.column.name')}</Field.Label>
                <TextInput value={name} onChange={(event: React.ChangeEvent<HTMLInputElement>) => setName(event.currentTarget.value)} />
                <Field.Error />
              </Field.Root>
            </Grid.Item>
            <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
              <Field.Root name="requests_per_month" error={error('requests_per_month')} hint={t('access.plans.monthHint')} required>
                <Field.Label>{t('access.plans.column.month')}</Field.Label>
                <NumberInput value={perMonth} onValueChange={setPerMonth} />
                <Field.Hint />
                <Field.Error />
              </Field.Root>
            </Grid.Item>
            <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
              <Field.Root name="requests_per_minute" error={error('requests_per_minute')} required>
                <Field.Label>{t('access.plans.column.minute')}</Field.Label>
                <NumberInput value={perMinute} onValueChange={setPerMinute} />
                <Field.Error />
              </Field.Root>
            </Grid.Item>
            <Grid.Item col={12} direction="column" alignItems="stretch">
              <Field.Root
                name="endpoints"
                error={fieldError(problem, 'endpoints', (index) => t('form.line', { line: Number(index) + 1 }))}
                hint={
                  groups
                    ? t('access.plans.endpointsHintGroups', { public: groups.public.join(', '), private: groups.private.join(', ') })
                    : t('access.plans.endpointsHint')
                }
                required
              >
                <Field.Label>{t('access.plans.column.endpoints')}</Field.Label>
                <Textarea
                  value={endpoints}
                  onChange={(event) => setEndpoints(event.currentTarget.value)}
                  style={{ fontFamily: 'monospace' }}
                />
                <Field.Hint />
                <Field.Error />
              </Field.Root>
            </Grid.Item>
            <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
              <Field.Root name="price_monthly" error={error('price_monthly')} required>
                <Field.Label>
                  {currency ? t('access.plans.priceIn', { currency: currency.toUpperCase() }) : t('access.plans.column.price')}
                </Field.Label>
                <NumberInput value={price} step={0.01} onValueChange={setPrice} />
                <Field.Error />
              </Field.Root>
            </Grid.Item>
            <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
              <Field.Root name="is_default" hint={t('access.plans.defaultHint')}>
                <Field.Label>{t('access.plans.default')}</Field.Label>
                <Toggle
                  onLabel={t('toggle.on')}
                  offLabel={t('toggle.off')}
                  checked={isDefault}
                  onChange={(event) => setIsDefault(event.currentTarget.checked)}
                />
                <Field.Hint />
              </Field.Root>
            </Grid.Item>
            <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
              <Field.Root name="overage_unit_amount" error={error('overage_unit_amount')} hint={t('access.plans.overageHint')}>
                <Field.Label>{t('access.plans.overage')}</Field.Label>
                <NumberInput value={overage} onValueChange={setOverage} />
                <Field.Hint />
                <Field.Error />
              </Field.Root>
            </Grid.Item>
            <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
              <Field.Root
                name="currency"
                error={error('currency')}
                hint={t('access.plans.currencyHint', { currency: (currency ?? '').toUpperCase() })}
              >
                <Field.Label>{t('access.plans.currency')}</Field.Label>
                <TextInput
                  value={planCurrency}
                  placeholder={currency}
                  onChange={(event: React.ChangeEvent<HTMLInputElement>) => setPlanCurrency(event.currentTarget.value)}
                />
                <Field.Hint />
                <Field.Error />
              </Field.Root>
            </Grid.Item>
          </Grid.Root>
          {plan && plan.keys > 0 && (
            <Box paddingTop={4}>
              <Typography variant="pi" textColor="neutral600">
                {t('access.plans.editWarning', { keys: plan.keys })}
              </Typography>
            </Box>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Modal.Close>
            <Button variant="tertiary">{t('action.cancel')}</Button>
          </Modal.Close>
          <Button onClick={() => void save()} loading={busy === 'save'}>
            {t('action.save')}
          </Button>
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
}
