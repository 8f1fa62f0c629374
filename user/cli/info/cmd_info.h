/* SPDX-License-Identifier: MIT */
/*
 * wsc info: the loaded module's ABI, limits and allowlist; all the
 * rest of the CLI sees of it.
 */
#ifndef WSC_CMD_INFO_H
#define WSC_CMD_INFO_H

int cmd_info(int argc, char **argv);

#endif /* WSC_CMD_INFO_H */
