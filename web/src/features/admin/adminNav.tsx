import type { NavItem } from '../../layout/SidebarNav';
import { AmbulanceIcon, BarChartIcon, DashboardIcon, GroupIcon, HospitalIcon, ListIcon, MailIcon, PersonIcon } from '../../layout/icons';

export const adminNav: NavItem[] = [
  { label: 'Overview', to: '/admin-dashboard', icon: <DashboardIcon />, exact: true },
  { label: 'Manage Operators', to: '/admin-dashboard/operators', icon: <GroupIcon /> },
  { label: 'All Cases', to: '/admin-dashboard/cases', icon: <ListIcon /> },
  { label: 'Manage Ambulances', to: '/admin-dashboard/ambulances', icon: <AmbulanceIcon /> },
  { label: 'Manage Hospitals', to: '/admin-dashboard/hospitals', icon: <HospitalIcon /> },
  { label: 'Reports', to: '/admin-dashboard/reports', icon: <BarChartIcon /> },
  { label: 'Outbox', to: '/admin-dashboard/outbox', icon: <MailIcon /> },
];

export const adminBottomNav: NavItem[] = [
  { label: 'View Profile', to: '/admin-dashboard/profile', icon: <PersonIcon /> },
];
