//! The `volley` command line: the commands are in `volley::cli`.

fn main() -> std::process::ExitCode {
    volley::cli::quiet_on_closed_pipe();
    volley::cli::clean_exit_on_output_errors();
    volley::cli::main()
}
