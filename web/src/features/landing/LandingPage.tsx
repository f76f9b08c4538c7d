import Box from '@mui/material/Box';
import { ClosingCta } from './ClosingCta';
import { FeatureCards } from './FeatureCards';
import { Hero } from './Hero';
import { ImpactBand } from './ImpactBand';
import { LandingFooter } from './LandingFooter';
import { LandingHeader } from './LandingHeader';

/** The public landing page (SPEC §2). */
export function LandingPage() {
  return (
    <Box sx={{ bgcolor: 'background.paper', minHeight: '100vh' }}>
      <LandingHeader />
      <main>
        <Hero />
        <FeatureCards />
        <ImpactBand />
        <ClosingCta />
      </main>
      <LandingFooter />
    </Box>
  );
}
