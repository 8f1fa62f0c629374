/* SPDX-License-Identifier: MIT */
/*
 * wsc diff: two reports of wsc trace or wsc bench compared; all the rest
 * of the CLI sees of it.
 */
#ifndef WSC_CMD_DIFF_H
#define WSC_CMD_DIFF_H

int cmd_diff(int argc, char **argv);

#endif /* WSC_CMD_DIFF_H */
