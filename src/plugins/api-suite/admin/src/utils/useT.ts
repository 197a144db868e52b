import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import { formatMoney } from '../../../shared/format';
import { getTranslation } from './getTranslation';

export type Translate = (id: string, values?: Record<string, string | number>) => string;

/** The plugin's translation keys (translations/en.json), prefixed as the admin registers them. */
export function useT(): Translate {
  const { formatMessage } = useIntl();
  return useCallback<Translate>((id, values) => formatMessage({ id: getTranslation(id), defaultMessage: id }, values), [formatMessage]);
}

export function useFormat() {
  const { formatDate, formatTime, formatNumber, locale } = useIntl();
  return {
    dateTime: (value: string | null | undefined) =>
      value
        ? `${formatDate(value, { day: 'numeric', month: 'short', year: 'numeric' })} ${formatTime(value, { hour: '2-digit', minute: '2-digit', second: '2-digit' })}`
        : '—',
    /** Day and minute, for tables where the seconds would only widen a column. */
    dateTimeShort: (value: string | null | undefined) =>
      value ? `${formatDate(value, { day: 'numeric', month: 'short' })} ${formatTime(value, { hour: '2-digit', minute: '2-digit' })}` : '—',
    time: (value: string) => formatTime(value, { hour: '2-digit', minute: '2-digit' }),
    number: (value: number) => formatNumber(value),
    /** The shared money formatter (the portal's too), in the admin's locale. */
    money: (value: number, currency: string) => formatMoney(value, currency, { locale }),
  };
}
