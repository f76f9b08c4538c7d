import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** The Lifeline mark: a red cross carrying a heartbeat line. */
export function LogoMark({ size = 36 }: { size?: number }) {
  return (
    <Box component="svg" viewBox="0 0 48 48" sx={{ width: size, height: size, flexShrink: 0 }} aria-hidden>
      <rect width="48" height="48" rx="12" fill="#d32f2f" />
      <path d="M19 9h10v10h10v10H29v10H19V29H9V19h10z" fill="#fff" />
      <path d="M8 25h9l3-6 4 12 3-8 2 2h11" fill="none" stroke="#d32f2f" strokeWidth="2.6"
        strokeLinecap="round" strokeLinejoin="round" />
    </Box>
  );
}

export function Logo({ size = 36, showName = true, color }: { size?: number; showName?: boolean; color?: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25 }}>
      <LogoMark size={size} />
      {showName && (
        <Typography component="span" sx={{ fontWeight: 800, fontSize: size * 0.6, letterSpacing: -0.5, color }}>
          Lifeline
        </Typography>
      )}
    </Box>
  );
}
