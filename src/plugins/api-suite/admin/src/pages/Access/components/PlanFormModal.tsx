import { Box, Button, Flex, Grid, NumberInput, Textarea, Typography } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient, type Plan, type PlanInput } from '../../../api';
import { FormField, FormModal, OnOffToggle, TextValueInput } from '../../../components/FormModal';
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
  groups?: { public: string[]; private: string[]; content: string[] };
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
  const [priceYearly, setPriceYearly] = useState<number | undefined>(plan?.price_yearly ?? undefined);
  const [trialDays, setTrialDays] = useState<number | undefined>(plan?.trial_days ?? 0);

  const save = async () => {
    // Empty numbers go as null so the server names the field rather than a default hiding it.
    const input: PlanInput = {
      name,
      requests_per_month: perMonth ?? null,
      requests_per_minute: perMinute ?? null,
      endpoints: lines(endpoints),
      price_monthly: price ?? null,
      is_default: isDefault,
      currency: planCurrency.trim() === '' ? null : planCurrency.trim().toLowerCase(),
      overage_unit_amount: overage ?? null,
      price_yearly: priceYearly ?? null,
      trial_days: trialDays ?? null,
    };
    const saved = await run('save', () => (plan ? client.access.updatePlan(plan.id, input) : client.access.createPlan(input)), {
      success: plan ? 'form.saved' : 'access.plans.created',
      quiet: true,
    });
    if (saved) onSaved();
  };

  return (
    <FormModal
      title={plan ? t('access.plans.edit', { name: plan.name }) : t('access.plans.new')}
      onClose={onClose}
      problem={problem}
      submit={{ label: t('action.save'), onClick: () => void save(), loading: busy === 'save' }}
    >
      <Grid.Root gap={4}>
        <FormField col={12} name="name" label={t('access.plans.column.name')} required>
          <TextValueInput value={name} onValueChange={setName} />
        </FormField>
        <FormField col={6} name="requests_per_month" label={t('access.plans.column.month')} hint={t('access.plans.monthHint')} required>
          <NumberInput value={perMonth} onValueChange={setPerMonth} />
        </FormField>
        <FormField col={6} name="requests_per_minute" label={t('access.plans.column.minute')} required>
          <NumberInput value={perMinute} onValueChange={setPerMinute} />
        </FormField>
        <FormField
          col={12}
          name="endpoints"
          label={t('access.plans.column.endpoints')}
          error={fieldError(problem, 'endpoints', (index) => t('form.line', { line: Number(index) + 1 }))}
          hint={
            groups
              ? t('access.plans.endpointsHintGroups', {
                  public: groups.public.join(', '),
                  private: groups.private.join(', '),
                  content: groups.content.length > 0 ? groups.content.join(', ') : t('access.plans.noContentTypes'),
                })
              : t('access.plans.endpointsHint')
          }
          required
        >
          <Textarea value={endpoints} onChange={(event) => setEndpoints(event.currentTarget.value)} style={{ fontFamily: 'monospace' }} />
        </FormField>
        <Grid.Item col={12}>
          {/* The groups offered as one click each: @content sells the site's own content types without listing their paths. */}
          <Flex gap={2} wrap="wrap">
            {GROUPS.filter((group) => !lines(endpoints).includes(group)).map((group) => (
              <Button key={group} variant="tertiary" size="S" onClick={() => setEndpoints(lines(endpoints).concat(group).join('\n'))}>
                {t('access.plans.addGroup', { group })}
              </Button>
            ))}
          </Flex>
        </Grid.Item>
        <FormField
          col={6}
          name="price_monthly"
          label={currency ? t('access.plans.priceIn', { currency: currency.toUpperCase() }) : t('access.plans.column.price')}
          required
        >
          <NumberInput value={price} step={0.01} onValueChange={setPrice} />
        </FormField>
        <FormField
          col={6}
          name="price_yearly"
          label={currency ? t('access.plans.priceYearlyIn', { currency: currency.toUpperCase() }) : t('access.plans.priceYearly')}
          hint={t('access.plans.priceYearlyHint')}
        >
          <NumberInput value={priceYearly} step={0.01} onValueChange={setPriceYearly} />
        </FormField>
        <FormField col={6} name="trial_days" label={t('access.plans.trialDays')} hint={t('access.plans.trialDaysHint')} required>
          <NumberInput value={trialDays} onValueChange={setTrialDays} />
        </FormField>
        <FormField col={6} name="is_default" label={t('access.plans.default')} hint={t('access.plans.defaultHint')}>
          <OnOffToggle checked={isDefault} onCheckedChange={setIsDefault} />
        </FormField>
        <FormField col={6} name="overage_unit_amount" label={t('access.plans.overage')} hint={t('access.plans.overageHint')}>
          <NumberInput value={overage} onValueChange={setOverage} />
        </FormField>
        <FormField
          col={6}
          name="currency"
          label={t('access.plans.currency')}
          hint={t('access.plans.currencyHint', { currency: (currency ?? '').toUpperCase() })}
        >
          <TextValueInput value={planCurrency} placeholder={currency} onValueChange={setPlanCurrency} />
        </FormField>
      </Grid.Root>
      {plan && plan.keys > 0 && (
        <Box paddingTop={4}>
          <Typography variant="pi" textColor="neutral600">
            {t('access.plans.editWarning', { keys: plan.keys })}
          </Typography>
        </Box>
      )}
    </FormModal>
  );
}

const GROUPS = ['@public', '@private', '@content'];

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}
