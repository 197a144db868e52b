import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import { formatDateTime, formatMoney } from '../../../shared/format';
import { getTranslation } from './getTranslation';

export type Translate = (id: string, values?: Record<string, string | number>) => string;

/** The plugin's translation keys (translations/en.json), prefixed as the admin registers them. */
export function useT(): Translate {
  const { formatMessage } = useIntl();
  return useCallback<Translate>((id, values) => formatMessage({ id: getTranslation(id), defaultMessage: id }, values), [formatMessage]);
}

export function useFormat() {
  const { formatTime, formatNumber, locale } = useIntl();
  return {
    /** A moment as the portal writes it too: UTC, 24-hour, the zone said (shared/format.ts). */
    dateTime: (value: string | null | undefined) => formatDateTime(value, { seconds: true }),
    /** Day and minute, for tables where the year and the seconds would only widen a column. */
    dateTimeShort: (value: string | null | undefined) => formatDateTime(value, { year: false }),
    time: (value: string) => formatTime(value, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }) + ' UTC',
    number: (value: number) => formatNumber(value),
    /** The shared money formatter (the portal's too), in the admin's locale. */
    money: (value: number, currency: string) => formatMoney(value, currency, { locale }),
  };
}
