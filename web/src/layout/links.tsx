import Button, { type ButtonProps } from '@mui/material/Button';
import ListItemButton, { type ListItemButtonProps } from '@mui/material/ListItemButton';
import { createLink } from '@tanstack/react-router';

// MUI components that navigate with the router (typed `to`, no full page load).
function AnchorButton(props: ButtonProps<'a'>) {
  return <Button component="a" {...props} />;
}
function AnchorListItemButton(props: ListItemButtonProps<'a'>) {
  return <ListItemButton component="a" {...props} />;
}

export const ButtonLink = createLink(AnchorButton);
export const ListItemLink = createLink(AnchorListItemButton);
