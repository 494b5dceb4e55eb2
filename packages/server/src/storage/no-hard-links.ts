/** link() error codes of a filesystem without hard links (vfat, many SMB mounts) or of a target on another one. */
export const NO_HARD_LINKS: ReadonlySet<string> = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);
