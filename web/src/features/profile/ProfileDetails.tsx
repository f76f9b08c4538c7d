import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import type { UserDto } from '../../api/contract';
import { genderText, orNotProvided, shiftText } from './profileText';

function Field({ label, value, capitalize }: { label: string; value: string; capitalize?: boolean }) {
  return (
    <Box sx={{ py: 1.5 }}>
      <Typography variant="caption" color="text.secondary" component="dt" sx={{ textTransform: 'uppercase', letterSpacing: 0.6 }}>
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: 500, textTransform: capitalize ? 'capitalize' : 'none', overflowWrap: 'anywhere' }}>
        {value}
      </Typography>
    </Box>
  );
}

function Group({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card component="section" aria-label={title}>
      <CardContent>
        <Typography variant="h6" component="h2">{title}</Typography>
        <Divider sx={{ my: 1 }} />
        <Box component="dl" sx={{ m: 0 }}>{children}</Box>
      </CardContent>
    </Card>
  );
}

/** The two groups of the profile: Personal Information and Employment Details. */
export function ProfileDetails({ user }: { user: UserDto }) {
  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <Group title="Personal Information">
        <Field label="Full Name" value={orNotProvided(user.name)} />
        <Field label="Email Address" value={orNotProvided(user.email)} />
        <Field label="Phone Number" value={orNotProvided(user.phone)} />
        <Field label="Address" value={orNotProvided(user.address)} />
      </Group>
      <Group title="Employment Details">
        <Field label="Role" value={orNotProvided(user.role)} capitalize />
        <Field label="Shift" value={shiftText(user.shift)} />
        <Field label="Location" value={orNotProvided(user.location)} />
        <Field label="Gender" value={genderText(user.gender)} />
      </Group>
    </Box>
  );
}
