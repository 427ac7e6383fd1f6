// napkin-inspect: see the lifecycle of a napkin app from its trace.
exit(NapkinInspect.main(Array(CommandLine.arguments.dropFirst())))
