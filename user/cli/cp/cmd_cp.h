/* SPDX-License-Identifier: MIT */
/*
 * wsc cp: N cp transactions by the WSC paper's programs and ours; all the
 * rest of the CLI sees of it.
 */
#ifndef WSC_CMD_CP_H
#define WSC_CMD_CP_H

int cmd_cp(int argc, char **argv);

#endif /* WSC_CMD_CP_H */
