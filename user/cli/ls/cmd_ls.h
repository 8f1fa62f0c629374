/* SPDX-License-Identifier: MIT */
/*
 * wsc ls: a folder listed with one wrapped entry of stat calls; all the
 * rest of the CLI sees of it.
 */
#ifndef WSC_CMD_LS_H
#define WSC_CMD_LS_H

int cmd_ls(int argc, char **argv);

#endif /* WSC_CMD_LS_H */
