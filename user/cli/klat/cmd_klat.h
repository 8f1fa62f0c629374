/* SPDX-License-Identifier: MIT */
/*
 * wsc klat: the module's in-kernel latency experiments; all the rest
 * of the CLI sees of it.
 */
#ifndef WSC_CMD_KLAT_H
#define WSC_CMD_KLAT_H

int cmd_klat(int argc, char **argv);

#endif /* WSC_CMD_KLAT_H */
