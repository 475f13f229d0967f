/** The most file sections one patch may hold. */
export const MAX_PATCH_FILES = 100;
