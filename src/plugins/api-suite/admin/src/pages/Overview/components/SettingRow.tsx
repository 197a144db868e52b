import { Box, Flex, Typography } from '@strapi/design-system';

export function SettingRow({ label, value }: { label: string; value: string }) {
  return (
    <Box paddingTop={3} paddingBottom={3}>
      <Flex justifyContent="space-between" gap={4}>
        <Typography variant="omega" fontWeight="bold">
          {label}
        </Typography>
        <Typography variant="omega">{value}</Typography>
      </Flex>
    </Box>
  );
}
