import { Badge, Box, Flex, Typography } from '@strapi/design-system';

/**
 * One setting: its name, its value and, under them, what it means for the site. A `warning`
 * row's value is shown as a warning badge (a setting that is fine on a laptop, not in production).
 */
export function SettingRow({ label, value, hint, warning }: { label: string; value: string; hint?: string; warning?: boolean }) {
  return (
    <Box paddingTop={3} paddingBottom={3}>
      <Flex justifyContent="space-between" gap={4}>
        <Typography variant="omega" fontWeight="bold">
          {label}
        </Typography>
        {warning ? (
          <Badge backgroundColor="warning100" textColor="warning700" borderColor="warning200">
            {value}
          </Badge>
        ) : (
          <Typography variant="omega">{value}</Typography>
        )}
      </Flex>
      {hint && (
        <Box paddingTop={1}>
          <Typography variant="pi" textColor="neutral600">
            {hint}
          </Typography>
        </Box>
      )}
    </Box>
  );
}
