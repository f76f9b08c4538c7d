import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '../../../layout/visuallyHidden';
import { measuredLine } from './todayText';
import { useMeasuredReport } from './useTodayReport';

/**
 * The admin's honest counterpart to the landing page's statistics band: what this centre
 * measured over the last 30 days, and a note that the public figures are the specification's.
 * Admin overview only, never the public page.
 */
export function MeasuredLine() {
  const report = useMeasuredReport();
  return (
    <Box component="section" aria-label="Measured response times" data-testid="measured-line" sx={{ mb: 3 }}>
      {report.data ? (
        <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="measured-text">{measuredLine(report.data.overall)}</Typography>
      ) : report.isError ? (
        <Typography variant="body2" color="error" data-testid="measured-error">
          The measured figures are unavailable.{' '}
          <Button size="small" color="error" onClick={() => void report.refetch()} disabled={report.isFetching}>Retry</Button>
        </Typography>
      ) : (
        <Typography variant="body2" data-testid="measured-loading">
          <Box component="span" sx={visuallyHidden}>Loading the measured figures</Box>
          <Skeleton width="60%" aria-hidden />
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary" component="p">
        The public page&apos;s &ldquo;under 3 minutes&rdquo; and &ldquo;98 %&rdquo; are marketing figures of the specification, not measurements.
        {' '}Success here means arriving within the priority&apos;s target.
      </Typography>
    </Box>
  );
}
