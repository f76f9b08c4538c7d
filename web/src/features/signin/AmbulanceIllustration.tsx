import Box from '@mui/material/Box';
import { keyframes } from '@mui/material/styles';

// A decorative ambulance on the move: pure SVG and CSS, nothing loaded from the internet.
const bob = keyframes`0%,100% { transform: translateY(0) } 50% { transform: translateY(-3px) }`;
const spin = keyframes`to { transform: rotate(360deg) }`;
const flashRed = keyframes`0%,49% { opacity: 1 } 50%,100% { opacity: .15 }`;
const flashBlue = keyframes`0%,49% { opacity: .15 } 50%,100% { opacity: 1 }`;
const road = keyframes`to { transform: translateX(-80px) }`;
const wind = keyframes`0% { transform: translateX(30px); opacity: 0 } 30% { opacity: .9 } 100% { transform: translateX(-60px); opacity: 0 }`;

const motion = {
  '& .van': { animation: `${bob} .6s ease-in-out infinite` },
  '& .wheel': { transformBox: 'fill-box', transformOrigin: 'center', animation: `${spin} .5s linear infinite` },
  '& .siren-red': { animation: `${flashRed} .8s steps(1) infinite` },
  '& .siren-blue': { animation: `${flashBlue} .8s steps(1) infinite` },
  '& .road-marks': { animation: `${road} .6s linear infinite` },
  '& .wind': { animation: `${wind} 1s linear infinite` },
  '& .wind:nth-of-type(2)': { animationDelay: '.35s' },
  '& .wind:nth-of-type(3)': { animationDelay: '.7s' },
  '@media (prefers-reduced-motion: reduce)': { '& *': { animation: 'none !important' } },
};

export function AmbulanceIllustration() {
  return (
    <Box
      component="svg"
      viewBox="0 0 400 260"
      role="img"
      aria-label="Ambulance on its way"
      sx={{ width: '100%', maxWidth: 460, height: 'auto', display: 'block', mx: 'auto', ...motion }}
    >
      <circle cx="230" cy="120" r="110" fill="rgba(255,255,255,0.08)" />
      <rect x="0" y="214" width="400" height="46" fill="#2b3a4f" />
      <g className="road-marks" fill="#e9eef5">
        {Array.from({ length: 8 }, (_, i) => <rect key={i} x={i * 80} y="235" width="44" height="5" rx="2.5" />)}
      </g>
      <g stroke="#e9eef5" strokeWidth="4" strokeLinecap="round">
        <line className="wind" x1="10" y1="120" x2="50" y2="120" />
        <line className="wind" x1="0" y1="150" x2="45" y2="150" />
        <line className="wind" x1="15" y1="180" x2="50" y2="180" />
      </g>
      <g className="van">
        <rect x="150" y="62" width="34" height="12" rx="4" fill="#fff" />
        <rect className="siren-red" x="152" y="62" width="15" height="12" rx="4" fill="#ff1744" />
        <rect className="siren-blue" x="167" y="62" width="15" height="12" rx="4" fill="#2979ff" />
        <rect x="70" y="74" width="200" height="126" rx="14" fill="#ffffff" />
        <path d="M270 96h44c8 0 14 4 18 11l22 38c3 5 4 9 4 14v27c0 8-6 14-14 14h-74z" fill="#f5f7fa" />
        <path d="M280 106h32c4 0 7 2 9 5l18 32h-59z" fill="#9ec5ef" />
        <rect x="70" y="160" width="288" height="12" fill="#d32f2f" />
        <path d="M146 100h24v22h22v24h-22v22h-24v-22h-22v-24h22z" fill="#d32f2f" transform="translate(-8 -6) scale(.9)" />
        <rect x="336" y="174" width="22" height="10" rx="3" fill="#ffca28" />
        <rect x="70" y="74" width="200" height="126" rx="14" fill="none" stroke="#cfd8e3" strokeWidth="2" />
        <g className="wheel">
          <circle cx="125" cy="204" r="24" fill="#1f2633" />
          <circle cx="125" cy="204" r="12" fill="none" stroke="#cfd8e3" strokeWidth="4" />
          <path d="M113 204h24M125 192v24" stroke="#cfd8e3" strokeWidth="3" />
        </g>
        <g className="wheel">
          <circle cx="300" cy="204" r="24" fill="#1f2633" />
          <circle cx="300" cy="204" r="12" fill="none" stroke="#cfd8e3" strokeWidth="4" />
          <path d="M288 204h24M300 192v24" stroke="#cfd8e3" strokeWidth="3" />
        </g>
      </g>
    </Box>
  );
}
