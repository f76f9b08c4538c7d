import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from './visuallyHidden';

/**
 * A centred spinner with a word, shown while a shell decides what to render. It is the whole page
 * meanwhile, so it is the page's main region with its one heading (axe: landmark-one-main,
 * page-has-heading-one), the word said once as a status.
 */
export function FullPageLoading({ text }: { text: string }) {
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'background.default' }}>
      <Typography component="h1" sx={visuallyHidden}>Lifeline</Typography>
      <Box role="status" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2 }}>
        <CircularProgress aria-hidden />
        <Typography color="text.secondary">{text}</Typography>
      </Box>
    </Box>
  );
}
