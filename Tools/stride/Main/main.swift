import StrideCommands

StrideCommand.runMain()
