import type { NavItem } from '../../layout/SidebarNav';
import { AddCircleIcon, AmbulanceIcon, BarChartIcon, DashboardIcon, ListIcon, MapIcon, PersonIcon } from '../../layout/icons';

export const operatorNav: NavItem[] = [
  { label: 'Dashboard', to: '/dashboard', icon: <DashboardIcon />, exact: true },
  { label: 'Cases', to: '/dashboard/cases', icon: <ListIcon /> },
  { label: 'New Case', to: '/dashboard/new-case', icon: <AddCircleIcon /> },
  { label: 'Ambulance Tracking', to: '/dashboard/ambulance-tracking', icon: <AmbulanceIcon /> },
  { label: 'Ambulance Map', to: '/dashboard/ambulance-map', icon: <MapIcon /> },
  { label: 'Reports', to: '/dashboard/reports', icon: <BarChartIcon /> },
];

export const operatorBottomNav: NavItem[] = [
  { label: 'View Profile', to: '/dashboard/profile', icon: <PersonIcon /> },
];
